// What the ledger stops keeping, in small batches, never inside a commit: a commit's cost must not depend on
// how many certificates the ledger holds (issue 38). Evidence goes when its certificate expires, on SQLite with
// its whole week of expiry (readers stop seeing it at expiry already, so pruning late frees space late and
// changes no answer); reports go after DVS_REPORT_RETENTION when it is set. Certificate bodies, the log and the
// tokens are never touched. Who calls it: the job engine's scheduler where instances share PostgreSQL
// (src/service/ledger-pruning.ts), a timer in the one process of the embedded ledger, where no job engine need
// run.
import type { Logger } from '../lib/log.ts';
import type { Ledger } from './ledger.ts';

export interface Pruned {
  evidence: number;
  reports: number;
}

export interface LedgerRetention {
  /** Prunes until each kind's batch comes back short; resolves with how many certificates lost each. */
  runOnce: () => Promise<Pruned>;
  stop: () => Promise<void>;
}

export interface LedgerPrunerOptions {
  /** Rows per statement: each batch holds the write lock (SQLite) or its rows (PostgreSQL) only that long. */
  batch: number;
  /** Reports older than this are dropped; null keeps them as long as their certificates. */
  reportRetentionSeconds: number | null;
}

export interface LedgerRetentionOptions extends LedgerPrunerOptions {
  everyMs: number;
  log: Logger;
}

/** The pruning itself, for whoever calls it: a run asked for while one goes joins it. */
export function ledgerPruner(ledger: Ledger, opts: LedgerPrunerOptions): LedgerRetention {
  let running: Promise<Pruned> | null = null;
  let stopped = false;

  const drain = async (prune: (limit: number) => Promise<number>): Promise<number> => {
    let total = 0;
    for (;;) {
      const pruned = await prune(opts.batch);
      total += pruned;
      if (pruned < opts.batch || stopped) return total;
    }
  };
  const run = async (): Promise<Pruned> => {
    const retention = opts.reportRetentionSeconds;
    return {
      evidence: await drain((limit) => ledger.pruneExpiredEvidence(limit)),
      reports: retention === null ? 0 : await drain((limit) => ledger.pruneOldReports(retention, limit)),
    };
  };
  const runOnce = () => (running ??= run().finally(() => (running = null)));
  return {
    runOnce,
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
}

/** The pruning on a timer of this process. */
export function startLedgerRetention(ledger: Ledger, opts: LedgerRetentionOptions): LedgerRetention {
  const pruner = ledgerPruner(ledger, opts);
  const timer = setInterval(() => {
    pruner.runOnce().then(
      (pruned) => (pruned.evidence > 0 || pruned.reports > 0) && opts.log.info(pruned, 'ledger pruned'),
      (err: unknown) => opts.log.warn({ err }, 'the ledger could not be pruned; next try at the next interval'),
    );
  }, opts.everyMs).unref();
  return {
    runOnce: pruner.runOnce,
    async stop() {
      clearInterval(timer);
      await pruner.stop();
    },
  };
}
