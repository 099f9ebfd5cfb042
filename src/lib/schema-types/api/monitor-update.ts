// Generated from schemas/api/monitor-update.json by `npm run types`; edit the schema, not this file.

import type { Interval } from './monitor-request.ts';

/**
 * A change to a monitor: its interval, or whether it is paused. A change reschedules the next run.
 */
export interface MonitorUpdate {
  interval?: Interval;
  /**
   * true pauses the monitor (no run until resumed); false resumes it (refused while it has no token left).
   */
  paused?: boolean;
}
