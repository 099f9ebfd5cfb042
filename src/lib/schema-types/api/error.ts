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
   * Where the relevant documentation is.
   */
  docs?: string;
  /**
   * A stable name for the error that a client may act on, e.g. `busy` (503: retry after Retry-After seconds).
   */
  code?: string;
}
