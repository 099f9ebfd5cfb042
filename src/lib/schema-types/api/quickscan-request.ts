// Generated from schemas/api/quickscan-request.json by `npm run types`; edit the schema, not this file.

/**
 * A free, indicative scan of a domain.
 */
export interface QuickScanRequest {
  /**
   * The domain to scan, e.g. example.com (no scheme, path or port). Internationalised names are accepted.
   */
  domain: string;
}
