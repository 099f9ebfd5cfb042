// The ledger's pruning (src/payments/ledger-retention.ts) on the job engine's scheduler, where instances share
// PostgreSQL: pg-boss's cron sends one job per tick whichever instances run, and one instance takes it. So the
// pruning runs once per tick for the whole fleet, not once per instance as a timer in each would, and a tick
// whose instance dies mid-run is taken again when its job expires.
import type { JobQueue } from '../batches/job-queue.ts';
import type { Logger } from '../lib/log.ts';
import type { Pruned } from '../payments/ledger-retention.ts';

export const PRUNE_QUEUE = 'dvs-ledger-prune';
/** Every ten minutes: evidence is cleared within ten minutes of its certificate's expiry (docs/operations.md). */
export const PRUNE_CRON = '*/10 * * * *';
/** How often an instance looks for the tick's job: a tick is taken within this of its time. */
const POLL_SECONDS = 30;

/** The queue and its schedule; every instance may call it at start (both are kept, not added again). */
export async function prepareLedgerPruning(queue: JobQueue): Promise<void> {
  // No retry: a failed run is the next tick's to do again.
  await queue.ensureQueue({ name: PRUNE_QUEUE, retryLimit: 0, retryDelaySeconds: 0 });
  await queue.schedule(PRUNE_QUEUE, PRUNE_CRON);
}

/** This instance takes the ticks' jobs it finds first. */
export function startLedgerPruning(queue: JobQueue, prune: () => Promise<Pruned>, log: Logger): Promise<string> {
  return queue.work(
    PRUNE_QUEUE,
    async () => {
      const pruned = await prune();
      if (pruned.evidence > 0 || pruned.reports > 0) log.info(pruned, 'ledger pruned');
    },
    POLL_SECONDS,
  );
}
