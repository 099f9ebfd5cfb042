// Generated from schemas/api/error.json by `npm run types`; edit the schema, not this file.

/**
 * What went wrong, for a person or an agent to act on.
 */
export interface Error {
  /**
   * What went wrong and what to do about it.
   */
  error: string;
  /**
   * A stable name for the error that a client may act on, e.g. `busy` (503: retry after Retry-After seconds).
   */
  code?: string;
  /**
   * For rate_limited and busy: seconds until a retry may succeed (the Retry-After header of REST).
   */
  retry_after_s?: number;
  /**
   * Where the relevant documentation is.
   */
  docs?: string;
}
