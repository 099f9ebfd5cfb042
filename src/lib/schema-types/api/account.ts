// Generated from schemas/api/account.json by `npm run types`; edit the schema, not this file.

/**
 * The account an API key belongs to, with its limits and today's use.
 */
export interface Account {
  name: string;
  /**
   * Domains its batches may take per UTC day.
   */
  domains_per_day: number;
  /**
   * Domains taken so far today (UTC).
   */
  used_today: number;
  /**
   * Most domains in one batch.
   */
  max_batch: number;
  /**
   * Most of its items scanning at once, across every instance.
   */
  concurrency: number;
  /**
   * Most monitors it may have at once (paused ones count).
   */
  max_monitors: number;
}
