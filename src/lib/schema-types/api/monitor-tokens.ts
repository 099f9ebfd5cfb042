// Generated from schemas/api/monitor-tokens.json by `npm run types`; edit the schema, not this file.

/**
 * Prepaid runs: each token is held for the monitor at once (refused when unknown, spent, expired or in use) and spent by one run that issues a certificate. Deleting the monitor gives the unspent ones back.
 *
 * @minItems 1
 * @maxItems 1000
 */
export type PaymentTokens = [string, ...string[]];

/**
 * More prepaid runs for a monitor. A monitor paused for want of tokens resumes.
 */
export interface MonitorTokens {
  payment_tokens: PaymentTokens;
}
