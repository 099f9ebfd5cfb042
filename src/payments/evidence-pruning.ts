// Expired evidence leaves the ledger on a timer, in small batches, never inside a commit: a commit's cost
// must not depend on how many certificates the ledger holds (issue 38). Readers stop seeing evidence at its
// certificate's expiry already, so pruning late frees space late and changes no answer.
import type { Logger } from '../lib/log.ts';
import type { Ledger } from './ledger.ts';

export interface EvidencePruning {
  /** Prunes until a batch comes back short; resolves with how many certificates lost their evidence. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export interface EvidencePruningOptions {
  everyMs: number;
  /** Rows per statement: each batch holds the write lock (SQLite) or its rows (PostgreSQL) only that long. */
  batch: number;
  log: Logger;
}

export function startEvidencePruning(ledger: Ledger, opts: EvidencePruningOptions): EvidencePruning {
  let running: Promise<number> | null = null;
  let stopped = false;

  const drain = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const pruned = await ledger.pruneExpiredEvidence(opts.batch);
      total += pruned;
      if (pruned < opts.batch || stopped) return total;
    }
  };
  const runOnce = () => (running ??= drain().finally(() => (running = null)));

  const timer = setInterval(() => {
    runOnce().then(
      (pruned) => pruned > 0 && opts.log.info({ pruned }, 'expired evidence pruned'),
      (err: unknown) => opts.log.warn({ err }, 'expired evidence could not be pruned; next try at the next interval'),
    );
  }, opts.everyMs).unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
