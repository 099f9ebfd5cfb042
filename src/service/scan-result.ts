// The ScanResult both surfaces return (schemas/api/scan-result.json): a readable summary first, then the
// canonical JSON of the report or the certificate, and the same document as structuredContent. REST sends it
// as the body; MCP as the tool result, byte for byte the same object.
import type { Error as ErrorBody } from '../lib/schema-types/api/error.ts';

/** The stable codes of schemas/api/error.json, for a program to switch on. */
export type ErrorCode = NonNullable<ErrorBody['code']>;

export interface ScanResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
  /**
   * The report or the certificate; for an error, the Error body with its code. A judged result is cached
   * without it (the document is kept beside it) and gets it from `withStructuredContent`.
   */
  structuredContent?: Record<string, unknown>;
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
export function scanError(text: string, code: ErrorCode = 'not_resolvable'): ScanResult {
  return { content: [{ type: 'text', text }], isError: true, structuredContent: { error: text, code } };
}

const combined = new WeakMap<ScanResult, { document: object; result: ScanResult }>();

/**
 * The result with the judged document as structuredContent (an error result already carries its own). The same
 * result and document give the same object, so a cached Quick Scan is one object the API can serialise once.
 */
export function withStructuredContent(result: ScanResult, document: object | null): ScanResult {
  if (result.structuredContent || !document) return result;
  const kept = combined.get(result);
  if (kept?.document === document) return kept.result;
  const whole = { ...result, structuredContent: document as Record<string, unknown> };
  combined.set(result, { document, result: whole });
  return whole;
}
