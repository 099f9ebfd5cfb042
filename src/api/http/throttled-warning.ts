// A warning a hostile client can trigger at will (a forged webhook) is logged at most once per interval, with
// how many were left out since the last one: the log keeps the fact without letting the client flood it.
import type { Logger } from '../../lib/log.ts';

export function throttledWarning(
  log: Logger,
  message: string,
  intervalMs = 60_000,
  now: () => number = Date.now,
): (fields: Record<string, unknown>) => void {
  let last = -Infinity;
  let suppressed = 0;
  return (fields) => {
    const t = now();
    if (t - last < intervalMs) {
      suppressed++;
      return;
    }
    log.warn({ ...fields, suppressed_since_last: suppressed }, message);
    last = t;
    suppressed = 0;
  };
}
