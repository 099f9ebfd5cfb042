// Generated from schemas/api/monitor-list.json by `npm run types`; edit the schema, not this file.

/**
 * One page of the account's monitors, oldest first (creation time, then id).
 */
export interface MonitorList {
  /**
   * @maxItems 1000
   */
  monitors: Monitor[];
  /**
   * Give it as ?after= for the next page; null when this page ends the list. A page starts where the last one ended: a monitor listed is not listed again, and none that existed throughout is skipped.
   */
  next: string | null;
}
/**
 * A monitor: a domain Full-Validated on a schedule for the account.
 */
export interface Monitor {
  id: string;
  domain: string;
  /**
   * As given (ISO 8601 duration).
   */
  interval: string;
  paused: boolean;
  /**
   * requested: paused by PATCH; no_credits: its last token was spent (adding tokens resumes it); null while it runs.
   */
  paused_reason: 'requested' | 'no_credits' | null;
  /**
   * Tokens held for the monitor, unspent and unexpired: the runs it can still pay for.
   */
  credits: number;
  /**
   * When the next run is due (runs of many monitors are spread over the interval by their id); null while paused.
   */
  next_run_at: string | null;
  /**
   * The certificate of the monitor's last run that issued one: what the next run is compared with.
   */
  certificate_id: string | null;
  /**
   * That certificate's verdict.
   */
  verdict: string | null;
  /**
   * The latest run (null before the first).
   */
  last_run: null | {
    due_at: string;
    attempts: number;
    started_at: string;
    finished_at: string | null;
    /**
     * issued: a certificate (one token spent); incomplete: not judged after every retry (nothing spent, the certificate kept); failed: not run, because the service failed or no token was left (nothing spent); null while running.
     */
    outcome: 'issued' | 'incomplete' | 'failed' | null;
    verdict: string | null;
    score: number | null;
    certificate_id: string | null;
  };
  created_at: string;
}
