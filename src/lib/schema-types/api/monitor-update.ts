// Generated from schemas/api/monitor-update.json by `npm run types`; edit the schema, not this file.

/**
 * A change to a monitor: its interval, or whether it is paused. A change reschedules the next run.
 */
export interface MonitorUpdate {
  /**
   * ISO 8601 duration between two runs, in weeks, days, hours, minutes or seconds (P1D, PT12H, P1W); at least P1D (DVS_MONITOR_MIN_INTERVAL).
   */
  interval?: string;
  /**
   * true pauses the monitor (no run until resumed); false resumes it (refused while it has no token left).
   */
  paused?: boolean;
}
