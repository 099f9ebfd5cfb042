// Generated from schemas/api/scan-result.json by `npm run types`; edit the schema, not this file.

/**
 * The result of a scan, shaped like an MCP tool result: a readable summary, then the canonical JSON of the report (Quick Scan) or of the signed certificate (Full Validation).
 */
export interface ScanResult {
  /**
   * @minItems 1
   */
  content: [
    {
      type: 'text';
      text: string;
    },
    ...{
      type: 'text';
      text: string;
    }[],
  ];
  /**
   * True when the scan could not judge the domain (for example, it does not resolve); the text says why.
   */
  isError?: boolean;
}
