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
import { WebhookStore } from '../batches/webhook-store.ts';
import { WebhookOperations } from '../api/operations/webhook-operations.ts';
import { NetError, type ScanNet } from '../net/index.ts';
import { currentAddresses, withOwnNet } from './net-per-use.ts';
import { DELIVERY_TIMEOUT_MS, Webhooks, type SendOutcome } from '../service/webhooks.ts';
import type { Accounts } from '../payments/accounts.ts';
import type { PaymentGate } from '../payments/gate.ts';
import type { Pruned } from '../payments/ledger-retention.ts';
import { prepareLedgerPruning, startLedgerPruning } from '../service/ledger-pruning.ts';
import { Batches, type BatchEngine, type EventSink } from '../service/batches.ts';
import { MonitorStore } from '../batches/monitor-store.ts';
import { MonitorOperations } from '../api/operations/monitor-operations.ts';
import { Monitors } from '../service/monitors.ts';
import type { TokenHolder } from '../payments/ledger.ts';
import type { FullValidations } from '../service/full-validations.ts';
import type { Politeness } from '../service/politeness.ts';
import type { QuickScans } from '../service/quick-scans.ts';
import type { ScanSlots } from '../service/scan-slots.ts';

export interface BatchWiring {
  ops: BatchOperations;
  batches: Batches;
  webhookOps: WebhookOperations;
  /** The monitor API, when the ledger holds tokens for monitors. */
  monitorOps: MonitorOperations | null;
  /** Starts the workers now when the queue database holds work already (called once the service listens). */
  startIfPending(): void;
  close(): Promise<void>;
}

/** Bytes of a receiver's answer read (only its status counts). */
const RECEIVER_BODY_BYTES = 4096;

/** One delivery through the guarded network layer: POST, no redirects, the specification's 15 s limit. */
async function send(net: ScanNet, url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
  try {
    const answer = await net.request(url, {
      method: 'POST',
      headers,
      body,
      followRedirects: false,
      maxBodyBytes: RECEIVER_BODY_BYTES,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    return { status: answer.status };
  } catch (err) {
    return { error: err instanceof NetError ? `${err.code}: ${err.message}` : (err as Error).message };
  }
}

function wireWebhooks(
  config: Config,
  log: AppLogger,
  engine: () => Promise<{ webhookStore: WebhookStore; queue: JobQueue }>,
): Webhooks {
  return new Webhooks({
    engine: async () => {
      const { webhookStore, queue } = await engine();
      return { store: webhookStore, queue };
    },
    send: (url, headers, body) => withOwnNet(config, (net) => send(net, url, headers, body)),
    retryDivisor: config.webhooks.retryDivisor,
    overlapSeconds: config.webhooks.secretOverlapSeconds,
    log,
  });
}

/** Why deliveries could never reach this URL: its name resolves to an address the network layer refuses. */
async function urlProblem(config: Config, url: URL): Promise<string | null> {
  try {
    await withOwnNet(config, (net) => net.resolve(url.hostname));
    return null;
  } catch (err) {
    // A name that does not resolve yet may later; an address the network layer refuses never will.
    return err instanceof NetError && err.code === 'policy_refused' ? err.message : null;
  }
}

/** How soon an instance tries again to open the job queue's database after it could not. */
const OPEN_RETRY_MS = 5_000;

/** A scan's longest run (its budget, stretched at most three times on a busy host) and a margin to record it. */
const leaseSeconds = (deadlineMs: number, config: Config) =>
  Math.ceil((deadlineMs * 3) / 1000) + config.batches.leaseMarginSeconds;

type Engine = BatchEngine & { webhookStore: WebhookStore; monitorStore: MonitorStore };

/**
 * Opens the queue database and the engine over it, with the queues every instance works (and the ledger's
 * pruning, when the engine schedules it).
 */
async function openEngine(
  config: Config,
  deps: { log: AppLogger; prune: (() => Promise<Pruned>) | null },
  onError: (err: Error) => void,
): Promise<Engine> {
  const startedAt = process.hrtime.bigint();
  const db = await openQueueDatabase(config, onError);
  try {
    const queue = await JobQueue.open(
      db,
      { maintenanceSeconds: config.batches.maintenanceSeconds, onError },
      async (q) => {
        await Batches.prepare(q);
        await Webhooks.prepare(q);
        await Monitors.prepare(q);
        if (deps.prune) {
          await prepareLedgerPruning(q);
          await startLedgerPruning(q, deps.prune, deps.log);
        }
      },
    );
    deps.log.info(
      { queue: db.kind, ms: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6) },
      'job queue ready',
    );
    return { store: new BatchStore(db), webhookStore: new WebhookStore(db), monitorStore: new MonitorStore(db), queue };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** The monitors of accounts, over the same queue database and engine as batches. */
function wireMonitors(
  config: Config,
  tokens: TokenHolder,
  deps: { log: AppLogger; fullValidations: FullValidations; slots: ScanSlots },
  engine: () => Promise<{ monitorStore: MonitorStore; queue: JobQueue }>,
  events: EventSink,
): Monitors {
  return new Monitors({
    engine: async () => {
      const e = await engine();
      return { store: e.monitorStore, queue: e.queue };
    },
    tokens,
    validations: deps.fullValidations,
    slots: deps.slots,
    events,
    minIntervalMs: config.monitors.minIntervalMs,
    leaseSeconds: leaseSeconds(config.deadlines.fullMs, config),
    baseUrl: config.baseUrl,
    log: deps.log,
  });
}

export interface BatchWiringDeps {
  log: AppLogger;
  accounts: Accounts;
  gate: PaymentGate;
  /** The ledger's pruning when the job engine schedules it (a shared PostgreSQL), else null. */
  prune: (() => Promise<Pruned>) | null;
  tokenHolder?: TokenHolder;
  quickScans: QuickScans;
  fullValidations: FullValidations;
  slots: ScanSlots;
  politeness: Politeness;
  rulesetVersion: string;
}

export function wireBatches(config: Config, deps: BatchWiringDeps): BatchWiring {
  const { log } = deps;
  let opening: Promise<Engine> | null = null;
  let started: Promise<void> | null = null;
  let monitoring: Promise<void> | null = null;
  let delivering: Promise<void> | null = null;
  const onError = (err: Error) => log.warn({ err: err.message }, 'job queue: database error; reconnecting');
  const engine = (): Promise<Engine> =>
    (opening ??= openEngine(config, deps, onError)
      .then((opened) => {
        // Deliveries run on every instance that opened the queue, whether or not it takes batch items.
        delivering ??= webhooks.start();
        // Due monitor runs are taken by every instance that works batch items, from the moment the queue opens.
        if (monitors && config.batches.concurrency > 0) monitoring ??= monitors.start();
        return opened;
      })
      .catch((err: unknown) => {
        // The next attempt tries again (the database may be back by then).
        opening = null;
        throw err;
      }));
  const webhooks = wireWebhooks(config, log, engine);
  const events: EventSink = (tx, account, type, data) => webhooks.publish(tx, account, type, data);
  const monitors = deps.tokenHolder ? wireMonitors(config, deps.tokenHolder, deps, engine, events) : null;
  /** The engine, with this instance's workers taking jobs from the moment it is open. */
  const working = async (): Promise<Engine> => {
    const e = await engine();
    if (config.batches.concurrency > 0)
      started ??= batches.start().catch((err: Error) => {
        started = null;
        log.warn({ err: err.message }, 'batch workers could not start; the next use of the queue tries again');
      });
    return e;
  };
  let retry: NodeJS.Timeout | null = null;
  let closing = false;
  const batches = new Batches({
    engine: working,
    accounts: deps.accounts,
    gate: deps.gate,
    quickScans: deps.quickScans,
    fullValidations: deps.fullValidations,
    slots: deps.slots,
    politeness: deps.politeness,
    site: (domain) => normaliseDomain(domain, config.extraSuffixes).registrable,
    addresses: (domain) => currentAddresses(config, domain),
    rulesetVersion: deps.rulesetVersion,
    events,
    leaseSeconds: {
      quick: leaseSeconds(config.deadlines.quickMs, config),
      full: leaseSeconds(config.deadlines.fullMs, config),
    },
    // A politeness place lasts as long as a Full Validation's longest run (src/service/shared-state.ts).
    parkedLostSeconds: leaseSeconds(config.deadlines.fullMs, config),
    log,
  });
  return {
    batches,
    ops: new BatchOperations({ batches, accounts: deps.accounts, extraSuffixes: config.extraSuffixes }),
    webhookOps: new WebhookOperations({ webhooks, urlProblem: (url) => urlProblem(config, url) }),
    monitorOps: monitors ? new MonitorOperations({ monitors, extraSuffixes: config.extraSuffixes }) : null,
    startIfPending() {
      if (!config.databaseUrl && !embeddedQueueExists(config.dataDir)) return;
      // With work waiting (or a shared database other instances fill) this instance works the queue at once,
      // not only after a batch request of its own; until the database answers it tries again.
      const attempt = () =>
        void working().catch((err: Error) => {
          log.warn({ err: err.message }, `job queue: could not open; trying again in ${OPEN_RETRY_MS / 1000} s`);
          if (!closing) retry = setTimeout(attempt, OPEN_RETRY_MS);
        });
      attempt();
    },
    async close() {
      closing = true;
      if (retry) clearTimeout(retry);
      if (!opening) return;
      const open = await opening.catch(() => null);
      await Promise.allSettled([started, delivering, monitoring].filter((p) => p !== null));
      await batches.stop();
      await monitors?.stop();
      if (!open) return;
      await open.queue.stop();
      await open.queue.db.close();
    },
  };
}
