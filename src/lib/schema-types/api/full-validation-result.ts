// Generated from schemas/api/full-validation-result.json by `npm run types`; edit the schema, not this file.

import type { Certificate } from '../certificate.ts';
import type { Report } from '../report.ts';

/**
 * The typed result of a Full Validation: the signed certificate, and the report it was issued from (every result with what it observed, the probes, the summary). A token presented again for the same domain returns the same two documents.
 */
export interface FullValidationResult {
  /**
   * The certificate {payload, jws} of the second content item, with its inclusion proof in the issuer's transparency log as log (the third content item) when the service keeps a log.
   */
  certificate: Certificate;
  /**
   * The report the certificate was judged in; its verdict, score and outcomes are the certificate's. Always present, except when a token is presented again for a certificate issued before the service kept reports (ledger migration 003).
   */
  report?: Report;
}
