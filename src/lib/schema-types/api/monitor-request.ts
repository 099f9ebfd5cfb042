// Generated from schemas/api/monitor-request.json by `npm run types`; edit the schema, not this file.

/**
 * ISO 8601 duration between two runs, in weeks, days, hours, minutes or seconds (P1D, PT12H, P1W); at least P1D (DVS_MONITOR_MIN_INTERVAL).
 */
export type Interval = string;
/**
 * Prepaid runs: each token is held for the monitor at once (refused when unknown, spent, expired or in use) and spent by one run that issues a certificate. Deleting the monitor gives the unspent ones back.
 *
 * @minItems 1
 * @maxItems 1000
 */
export type PaymentTokens = [string, ...string[]];

/**
 * A domain to Full-Validate on a schedule, with the payment tokens that pay for its runs (one token per run that issues a certificate).
 */
export interface MonitorRequest {
  /**
   * The domain, e.g. example.com (no scheme, path or port).
   */
  domain: string;
  interval: Interval;
  payment_tokens: PaymentTokens;
}
