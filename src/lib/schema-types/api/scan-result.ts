// Generated from schemas/api/scan-result.json by `npm run types`; edit the schema, not this file.

import type { Error } from './error.ts';
import type { FullValidationResult } from './full-validation-result.ts';
import type { Report } from '../report.ts';

/**
 * The result of a scan, shaped like an MCP tool result: a readable summary, then the canonical JSON of the report (Quick Scan) or of the signed certificate exactly as the transparency log holds it (Full Validation), then for a logged certificate the canonical JSON of its inclusion proof; structuredContent carries the typed document (for a Full Validation, the certificate and its report). MCP's tools/call returns exactly this object.
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
  /**
   * The typed result: the Report of a Quick Scan, or a Full Validation's certificate and report (FullValidationResult); when isError is true, an Error with its code (for example not_resolvable).
   */
  structuredContent: Report | FullValidationResult | Error;
}
