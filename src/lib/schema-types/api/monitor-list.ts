// Generated from schemas/api/monitor-list.json by `npm run types`; edit the schema, not this file.

import type { Monitor } from './monitor.ts';

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
