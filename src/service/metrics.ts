// What the service reports about its work, independent of how it is exported (src/server/metrics.ts exports
// it to Prometheus).
import type { Tier, Verdict } from '../engine/types.ts';

/** A scan's end: its verdict, or why it has none. */
export type ScanEnd = Verdict | 'not_scanned' | 'deadline';

export interface ServiceMetrics {
  /** A scan ran to its end (not a cached answer). */
  scanFinished(tier: Tier, end: ScanEnd, seconds: number): void;
  /** A quick scan was answered from the cache. */
  cacheHit(): void;
}
