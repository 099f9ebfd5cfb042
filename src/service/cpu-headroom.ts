// Whether this process has CPU to spare for more background work, read from its event loop's utilisation (the
// share of wall time the loop spent running rather than waiting for events). A batch scan spends most of its
// wall time waiting on the network, so a fixed number of them leaves the cores idle on a fast network and
// crowds them on a slow one; the utilisation answers for the process as it runs, and rises too when other
// processes take the cores, since the loop's work then stretches over more wall time.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface CpuHeadroom {
  /** True while the loop was busy at least the target share of the last sampling period. */
  busy(): boolean;
}

/** Shortest period a reading covers: shorter ones would follow single scans' handshakes, not the load. */
const PERIOD_MS = 500;

export function eventLoopHeadroom(targetPercent: number, now: () => number = () => performance.now()): CpuHeadroom {
  let since: EventLoopUtilization = performance.eventLoopUtilization();
  let sinceAt = now();
  let busy = false;
  return {
    busy() {
      if (now() - sinceAt >= PERIOD_MS) {
        const current = performance.eventLoopUtilization();
        busy = performance.eventLoopUtilization(current, since).utilization * 100 >= targetPercent;
        since = current;
        sinceAt = now();
      }
      return busy;
    },
  };
}
