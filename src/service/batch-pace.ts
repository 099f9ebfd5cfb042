// How many batch items this instance scans at once, paced by how late its event loop runs. Batch work should
// fill the CPU that interactive work leaves and no more: a loop running late delays every /healthz answer and
// every step of an interactive scan by as much. The fixed DVS_BATCH_CONCURRENCY cannot know that: the right
// number depends on how long a scan waits on the network (its round trips) against how long it computes, and on
// who else shares the cores (another instance, the database). Measured on 2 cores with two instances and the
// fixture fleet at 50 ms round trips, 3 items each already pushed the /healthz p99 past 100 ms and 2 did not,
// where sites 200 ms away would want many more.
//
// The rule is additive increase, multiplicative decrease: every interval the loop's worst lateness is read; over
// the target the limit halves, under half the target it grows by one, but only while the batch lane is using
// every slot it has (a limit that grew while idle would let the next batch start in a burst).
export interface BatchPaceOptions {
  /** The most batch items at once (DVS_BATCH_CONCURRENCY). */
  max: number;
  /** The event loop's lateness the pace keeps under (ms): the worst of each interval. */
  targetDelayMs: number;
  /** How often the limit is set (ms). */
  intervalMs: number;
}

/** The batch lane the pace sets: src/service/scan-slots.ts. */
export interface PacedLane {
  /** The most batch items that ran at once since the last call. */
  takeBatchPeak(): number;
  setBatchLimit(limit: number): void;
}

/** The next limit, from the current one, the loop's worst lateness over the last interval and whether all ran. */
export function nextBatchLimit(
  limit: number,
  lateMs: number,
  full: boolean,
  opts: Pick<BatchPaceOptions, 'max' | 'targetDelayMs'>,
): number {
  if (lateMs > opts.targetDelayMs) return Math.max(1, Math.ceil(limit / 2));
  if (lateMs < opts.targetDelayMs / 2 && full) return Math.min(opts.max, limit + 1);
  return limit;
}

/** How often the width is set in service: fifty samples of the loop, and a batch at full width within seconds. */
export const PACE_INTERVAL_MS = 500;

/** How often the loop's lateness is sampled: a timer that runs late by X means any request arriving then waited X. */
const SAMPLE_MS = 10;

/**
 * Paces the lane from now (starting at one item) until `stop`. The lateness is sampled by a timer of its own
 * rather than by perf_hooks' monitorEventLoopDelay, whose reset drops the sample that spans it: a long hold-up
 * that ended just before a reading was then never seen.
 */
export function startBatchPace(opts: BatchPaceOptions, lane: PacedLane): { stop(): void } {
  let limit = 1;
  let worst = 0;
  let last = performance.now();
  lane.setBatchLimit(limit);
  const sample = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - SAMPLE_MS);
    last = now;
  }, SAMPLE_MS);
  const pace = setInterval(() => {
    const next = nextBatchLimit(limit, worst, lane.takeBatchPeak() >= limit, opts);
    worst = 0;
    if (next !== limit) lane.setBatchLimit((limit = next));
  }, opts.intervalMs);
  sample.unref();
  pace.unref();
  return {
    stop() {
      clearInterval(sample);
      clearInterval(pace);
    },
  };
}
