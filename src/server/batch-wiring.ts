// The batch side of an instance, composed from configuration: the queue database and pg-boss, opened at start
// when they hold work (a shared PostgreSQL, or an embedded queue with batches from before a restart) and
// otherwise with the first batch, so `dvs serve` is ready without waiting for PGlite; the workers; the routes.
import { normaliseDomain } from '../lib/domain-name.ts';
import type { Config } from '../lib/config.ts';
import type { AppLogger } from '../lib/log.ts';
import { BatchStore } from '../batches/batch-store.ts';
import { JobQueue } from '../batches/job-queue.ts';
import { embeddedQueueExists, openQueueDatabase } from '../batches/queue-database.ts';
import { BatchOperations } from '../api/operations/batch-operations.ts';
import { createNet } from '../net/index.ts';
import type { Accounts } from '../payments/accounts.ts';
import { Batches, type BatchEngine } from '../service/batches.ts';
import type { FullValidations } from '../service/full-validations.ts';
import type { Politeness } from '../service/politeness.ts';
import type { QuickScans } from '../service/quick-scans.ts';
import type { ScanSlots } from '../service/scan-slots.ts';

export interface BatchWiring {
  ops: BatchOperations;
  batches: Batches;
  /** Starts the workers now when the queue database holds work already (called once the service listens). */
  startIfPending(): void;
  close(): Promise<void>;
}

/** A scan's longest run (its budget, stretched at most three times on a busy host) and a margin to record it. */
const leaseSeconds = (deadlineMs: number) => Math.ceil((deadlineMs * 3) / 1000) + 10;

export function wireBatches(
  config: Config,
  deps: {
    log: AppLogger;
    accounts: Accounts;
    quickScans: QuickScans;
    fullValidations: FullValidations;
    slots: ScanSlots;
    politeness: Politeness;
    rulesetVersion: string;
  },
): BatchWiring {
  const { log } = deps;
  let opening: Promise<BatchEngine> | null = null;
  let started: Promise<void> | null = null;
  const onError = (err: Error) => log.warn({ err: err.message }, 'job queue: database error; reconnecting');
  const engine = (): Promise<BatchEngine> =>
    (opening ??= (async () => {
      const startedAt = process.hrtime.bigint();
      const db = await openQueueDatabase(config, onError);
      try {
        const queue = await JobQueue.start(db, { maintenanceSeconds: config.batches.maintenanceSeconds, onError });
        await Batches.prepare(queue);
        log.info(
          { queue: db.kind, ms: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6) },
          'job queue ready',
        );
        return { store: new BatchStore(db), queue };
      } catch (err) {
        await db.close();
        throw err;
      }
    })().catch((err: unknown) => {
      // The next request tries again (the database may be back by then).
      opening = null;
      throw err;
    }));
  const net = createNet(config);
  const batches = new Batches({
    engine: async () => {
      const e = await engine();
      // Workers start with the first use of the queue: from then on this instance takes batch jobs too.
      if (config.batches.concurrency > 0) started ??= batches.start();
      return e;
    },
    accounts: deps.accounts,
    quickScans: deps.quickScans,
    fullValidations: deps.fullValidations,
    slots: deps.slots,
    politeness: deps.politeness,
    site: (domain) => normaliseDomain(domain, config.extraSuffixes).registrable,
    addresses: async (domain) => (await net.resolve(domain).catch(() => [])).map((a) => a.address),
    rulesetVersion: deps.rulesetVersion,
    leaseSeconds: { quick: leaseSeconds(config.deadlines.quickMs), full: leaseSeconds(config.deadlines.fullMs) },
    log,
  });
  return {
    batches,
    ops: new BatchOperations({ batches, accounts: deps.accounts, extraSuffixes: config.extraSuffixes }),
    startIfPending() {
      if (!config.databaseUrl && !embeddedQueueExists(config.dataDir)) return;
      engine().catch((err: Error) => log.warn({ err: err.message }, 'job queue: could not open; batches wait for it'));
    },
    async close() {
      await net.close();
      if (!opening) return;
      const open = await opening.catch(() => null);
      await started?.catch(() => undefined);
      await batches.stop();
      if (!open) return;
      await open.queue.stop();
      await open.queue.db.close();
    },
  };
}
