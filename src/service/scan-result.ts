// The ScanResult both surfaces return (schemas/api/scan-result.json): a readable summary first, then the
// canonical JSON of the report or the certificate. REST sends it as the body; MCP as the tool result.
export interface ScanResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

export function scanResult(summary: string, canonical: string): ScanResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: canonical },
    ],
  };
}

/** A scan that could not judge the domain at all (it does not resolve, or only to refused addresses). */
export function scanError(text: string): ScanResult {
  return { content: [{ type: 'text', text }], isError: true };
}
