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
   * A stable code a program can switch on (docs/api.md#error-codes): invalid_domain, not_resolvable, payment_required, token_used, token_expired, rate_limited, busy, timeout; for the batch, webhook and monitor APIs also unauthorized, quota_exceeded, batch_too_large, monitor_limit, not_found and conflict. Absent for other problems (a malformed body, an unknown field); new codes may be added.
   */
  code?:
    | 'invalid_domain'
    | 'not_resolvable'
    | 'payment_required'
    | 'token_used'
    | 'token_expired'
    | 'rate_limited'
    | 'busy'
    | 'timeout'
    | 'unauthorized'
    | 'quota_exceeded'
    | 'batch_too_large'
    | 'monitor_limit'
    | 'not_found'
    | 'conflict';
  /**
   * For rate_limited, quota_exceeded and busy: seconds until a retry may succeed (the Retry-After header of REST).
   */
  retry_after_s?: number;
  /**
   * Where the relevant documentation is.
   */
  docs?: string;
}
