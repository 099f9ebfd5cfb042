// Batches: many domains validated for one account, as jobs on the engine every instance shares. Accepting a
// batch charges the account's daily quota, writes its items and enqueues the first of them in one transaction.
// An account has at most its concurrency of items with a job; each item that ends hands its turn to the
// account's next waiting item in the transaction that records its result, so one account's 10,000 items never
// stand in the queue ahead of another account's 10. Each instance takes jobs only while it has a batch slot free
// (interactive scans first, src/service/scan-slots.ts) and a place under the politeness limits of the site and
// its addresses. An item whose place is full is parked on that place without a job, and each release of a
// place hands the oldest item parked on it back to the engine, so the engine is never asked for jobs that cannot
// run yet (docs/architecture.md). A full item pays with its own token through the ledger like a single Full
// Validation.
import { ScanDeadlineError } from '../engine/observe-and-judge.ts';
import type {
  BatchMode,
  BatchRow,
  BatchStore,
  ClaimedItem,
  ItemRef,
  PromotedItem,
  WokenItem,
  NewItem,
  ResultRow,
  FinishedCount,
} from '../batches/batch-store.ts';
import { newBatchId } from '../batches/batch-store.ts';
import type { FetchedJob, JobQueue, NewJob } from '../batches/job-queue.ts';
import type { EngineDb, Queryable } from '../batches/queue-database.ts';
import type { Logger } from '../lib/log.ts';
import type { Account, Accounts } from '../payments/accounts.ts';
import type { PaymentGate } from '../payments/gate.ts';
import { PaymentRequiredError, type FullValidations } from './full-validations.ts';
import type { Acquired, Politeness } from './politeness.ts';
import type { QuickScans } from './quick-scans.ts';
import type { ScanSlots } from './scan-slots.ts';
import { SlotWorker } from './slot-worker.ts';
import type { EventType } from './webhooks.ts';

export const ITEM_QUEUE = 'dvs-batch-item';
export const DEAD_ITEM_QUEUE = 'dvs-batch-item-dead';
/** The sweep that hands back parked items whose wake-up was lost, one tick a minute for the whole fleet. */
export const PARKED_SWEEP_QUEUE = 'dvs-batch-parked-sweep';
const PARKED_SWEEP_CRON = '* * * * *';
/** Parked items handed back per transaction of the sweep. */
const SWEEP_PAGE = 500;
/**
 * How often a job looks at the places again after parking on a full one, when each look finds another place
 * full (places taken and given back meanwhile): after that the item stays parked where it is.
 */
const PARK_LOOKS = 4;

/** Attempts of an item's job (an instance dying or losing its database mid-item) before it is given up. */
const ITEM_RETRIES = 4;
/**
 * How long a job put off without parking (a twin of it running, or an item not queued at its politeness limit,
 * such as a running one whose claim lapsed) waits before it is looked at again.
 */
const DEFER_MS = 1_500;
/** How often an idle worker asks the engine for a job (a batch accepted here wakes it at once). */
const POLL_MS = 1_000;
/** Results read from the database at once while streaming them. */
const RESULTS_PAGE = 500;

export interface ItemJob {
  batch: string;
  seq: number;
  account: string;
  mode: BatchMode;
  /** The item's domain, for its politeness places before any claim (absent in jobs of older instances). */
  domain?: string;
  /** The place whose release woke this parked item: if it parks elsewhere, that wake-up passes on. */
  woke?: string;
}

/** Places held for one item's scan. */
type Held = Extract<Acquired, { release: unknown }>;

/** The queue's database, store and engine, opened on first use (embedded, PGlite takes seconds to create). */
export interface BatchEngine {
  store: BatchStore;
  queue: JobQueue;
}

export class BatchTooLargeError extends Error {
  override name = 'BatchTooLargeError';
  constructor(readonly maxBatch: number) {
    super(`this account may submit at most ${maxBatch} domains per batch; split the list into smaller batches`);
  }
}

export class QuotaExceededError extends Error {
  override name = 'QuotaExceededError';
  constructor(
    readonly remaining: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `this batch is larger than what is left of the account's daily quota (${remaining} domains until 00:00 UTC); nothing was enqueued`,
    );
  }
}

/** One result line: what the results endpoint streams for a finished item. */
export interface ItemResult {
  domain: string;
  verdict: string | null;
  score: number | null;
  ruleset: string;
  finished_at: string;
  certificate_id?: string;
  error?: { code: string; message: string };
}

export interface BatchDeps {
  engine: () => Promise<BatchEngine>;
  accounts: Accounts;
  /** Gives a full item's token the digest its item keeps instead of it. */
  gate: Pick<PaymentGate, 'digest'>;
  quickScans: QuickScans;
  fullValidations: FullValidations;
  slots: ScanSlots;
  politeness: Politeness;
  /** The registrable domain a name belongs to (its politeness key). */
  site: (domain: string) => string;
  /** The addresses a name resolves to (none when it does not resolve: the scan will say so). */
  addresses: (domain: string) => Promise<string[]>;
  rulesetVersion: string;
  /** How long a claim (and its job) lasts: longer than the scan can run. */
  leaseSeconds: Record<BatchMode, number>;
  /** How long an item stays parked before the sweep takes its wake-up for lost: a politeness place's lease. */
  parkedLostSeconds: number;
  /** Where the account's events go (its webhooks), written in the transaction that records the result. */
  events: EventSink;
  log: Logger;
}

export type EventSink = (
  tx: Queryable & { engine: EngineDb },
  accountId: string,
  type: EventType,
  data: Record<string, unknown>,
) => Promise<void>;

export class Batches {
  private worker: SlotWorker<ItemJob> | null = null;

  constructor(private readonly deps: BatchDeps) {}

  /**
   * The digest a full item keeps of its payment token (the token itself is never stored here); null when no
   * validation would take this token (not shaped as this service's tokens, or of the other mode).
   */
  tokenDigest(token: string): string | null {
    return this.deps.gate.digest(token)?.digest ?? null;
  }

  /** Accepts a batch: 413 and 429 conditions first, then the rows and first jobs in one transaction. */
  async submit(account: Account, mode: BatchMode, items: readonly NewItem[]): Promise<BatchRow> {
    if (items.length > account.maxBatch) throw new BatchTooLargeError(account.maxBatch);
    const { accounts } = this.deps;
    const refused = await accounts.charge(account, items.length);
    if (refused) throw new QuotaExceededError(refused.remaining, refused.retryAfterSeconds);
    const id = newBatchId();
    try {
      const { store, queue } = await this.deps.engine();
      await queue.db.transaction(async (tx) => {
        const inWork = await store.inWork(tx, account.id);
        await store.insert(tx, id, account.id, mode, items);
        const first = await store.promote(tx, account.id, account.concurrency - inWork);
        await this.enqueue(tx, first, account.id);
      });
      this.worker?.wake();
      return (await store.get(id, account.id))!;
    } catch (err) {
      await accounts.refund(account, items.length);
      throw err;
    }
  }

  /** The jobs of items just given a turn, in the transaction that gave it. */
  private async enqueue(tx: Queryable & { engine: EngineDb }, refs: readonly PromotedItem[], account: string) {
    const jobs: NewJob<ItemJob>[] = refs.map((r) => ({
      data: { batch: r.batchId, seq: r.seq, account, mode: r.mode, domain: r.domain },
      expireInSeconds: this.deps.leaseSeconds[r.mode],
    }));
    await (await this.deps.engine()).queue.enqueue(ITEM_QUEUE, jobs, tx.engine);
  }

  async status(account: Account, id: string): Promise<BatchRow | null> {
    return (await this.deps.engine()).store.get(id, account.id);
  }

  /** True when the batch was cancelled now; null when the account has no such batch. */
  async cancel(account: Account, id: string): Promise<boolean | null> {
    const { store } = await this.deps.engine();
    if (!(await store.get(id, account.id))) return null;
    // A cancelled item with a job hands its account's turn on when the job finds it cancelled; a parked one has
    // no job, so its turn passes on here.
    return store.cancel(id, account.id, async (tx, parked) =>
      this.enqueue(tx, await store.promote(tx, account.id, parked), account.id),
    );
  }

  /** The batch's finished results after the cursor, page by page, never all in memory; null: no such batch. */
  async results(account: Account, id: string, after: number): Promise<AsyncIterable<ResultRow> | null> {
    const { store } = await this.deps.engine();
    if (!(await store.get(id, account.id))) return null;
    return (async function* pages() {
      let cursor = after;
      for (;;) {
        const page = await store.results(id, cursor, RESULTS_PAGE);
        yield* page;
        if (page.length < RESULTS_PAGE) return;
        cursor = page.at(-1)!.resultNo;
      }
    })();
  }

  /**
   * Creates the item queue, its dead letter queue and the parked items' sweep with its schedule unless they
   * exist: jobs can be enqueued after this.
   */
  static async prepare(queue: JobQueue): Promise<void> {
    await queue.ensureQueue({ name: DEAD_ITEM_QUEUE, retryLimit: 0, retryDelaySeconds: 0 });
    await queue.ensureQueue({
      name: ITEM_QUEUE,
      retryLimit: ITEM_RETRIES,
      retryDelaySeconds: 1,
      deadLetter: DEAD_ITEM_QUEUE,
    });
    // No retry: a failed sweep is the next tick's to do again.
    await queue.ensureQueue({ name: PARKED_SWEEP_QUEUE, retryLimit: 0, retryDelaySeconds: 0 });
    await queue.schedule(PARKED_SWEEP_QUEUE, PARKED_SWEEP_CRON);
  }

  /** Starts this instance's workers: they take jobs while a batch slot is free. */
  async start(): Promise<void> {
    const { queue } = await this.deps.engine();
    await queue.work<ItemJob>(DEAD_ITEM_QUEUE, (job) => this.giveUp(job));
    await queue.work(PARKED_SWEEP_QUEUE, () => this.sweepParked(), 10);
    this.worker ??= new SlotWorker<ItemJob>({
      queue,
      name: ITEM_QUEUE,
      slots: this.deps.slots,
      pollMs: POLL_MS,
      log: this.deps.log,
      handle: (job) => this.handle(queue, job),
    });
    this.worker.start();
  }

  /** Items being worked on here now. */
  get inFlight(): number {
    return this.worker?.inFlight ?? 0;
  }

  /** Takes no more jobs and waits for the items running here. */
  async stop(): Promise<void> {
    await this.worker?.stop();
  }

  /**
   * One job: the item's politeness places are taken first, so an item put off for them costs its job and no
   * write to its row beyond its parking; then the item is claimed and run. Places given back wake the items
   * parked on them.
   */
  private async handle(queue: JobQueue, job: FetchedJob<ItemJob>): Promise<void> {
    const { store } = await this.deps.engine();
    const ref = { batchId: job.data.batch, seq: job.data.seq };
    let held: ClaimedItem | null = null;
    let places: Held | null = null;
    try {
      const domain = job.data.domain ?? (await store.domain(ref));
      const turn = domain === null ? null : await this.placesOrPark(store, ref, domain);
      if (turn !== null && 'release' in turn) places = turn;
      if (turn !== null && !('release' in turn)) {
        // A wake-up this job carried passes on to the place's next item when this one waits elsewhere now.
        if (job.data.woke && turn.parked !== job.data.woke) await this.wakeParked([job.data.woke]);
        if (turn.parked === null) await this.defer(queue, job);
      } else {
        const item = await store.claim(ref, this.deps.leaseSeconds[job.data.mode]);
        if (item === 'cancelled') {
          // The account's turn this item held passes on. (A finished item handed it on with its result.)
          await queue.db.transaction((tx) => this.passTurn(tx, job.data.account));
        } else if (item === 'busy') {
          await this.defer(queue, job);
        } else if (item !== 'finished') {
          held = item;
          await this.runItem(store, item);
          held = null;
        }
      }
      await queue.complete(ITEM_QUEUE, job.id);
    } catch (err) {
      this.deps.log.warn(
        { err: (err as Error).message, batch: job.data.batch, seq: job.data.seq },
        'batch item failed; the queue retries it',
      );
      // The claim is given back at once when the database lets us (the connection that failed is replaced), so
      // the retry need not wait for its lease; a full item's token is then found redeemed, or still issued.
      if (held) await store.unclaim(held).catch(() => undefined);
      await queue.fail(ITEM_QUEUE, job.id, err as Error).catch(() => undefined);
    } finally {
      if (places) await this.giveBack(places);
    }
  }

  /**
   * The politeness places of one scan of the domain (its site and its addresses), or the place the item is now
   * parked on (`parked: null`: it could not be parked, as it is not queued). A place released between a refusal
   * and the parking would find no item to wake, so the places are asked again after parking: when they are free
   * then, the item is taken back (unless a release woke it meanwhile: that wake-up's job runs it).
   */
  private async placesOrPark(
    store: BatchStore,
    ref: ItemRef,
    domain: string,
  ): Promise<Held | { parked: string | null }> {
    const { politeness, site, addresses } = this.deps;
    const where = [site(domain), await addresses(domain)] as const;
    let parkedOn: string | null = null;
    for (let look = 0; ; look++) {
      const got = await politeness.tryAcquire(...where);
      if ('release' in got) {
        if (parkedOn === null || (await store.unpark(ref, parkedOn))) return got;
        await this.giveBack(got);
        return { parked: parkedOn };
      }
      if (got.full === parkedOn || look === PARK_LOOKS) return { parked: parkedOn };
      if (!(await store.park(ref, got.full, parkedOn))) return { parked: parkedOn };
      parkedOn = got.full;
    }
  }

  /** Gives places back and wakes the items parked on them. */
  private async giveBack(places: Held): Promise<void> {
    await places.release();
    await this.wakeParked(places.keys);
  }

  /** Hands the oldest item parked on each place back to the engine; a lost wake-up is the sweep's to redo. */
  private async wakeParked(keys: readonly string[]): Promise<void> {
    try {
      const { store, queue } = await this.deps.engine();
      const woken = await queue.db.transaction(async (tx) => {
        const items = await store.wake(tx, keys);
        await this.enqueueWoken(tx, items);
        return items.length;
      });
      if (woken > 0) this.worker?.wake();
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message }, 'parked batch items not woken; the sweep will');
    }
  }

  /** Parked items whose wake-up was lost (a release not followed by its wake-up) go back to the engine. */
  private async sweepParked(): Promise<void> {
    const { store, queue } = await this.deps.engine();
    for (;;) {
      const woken = await queue.db.transaction(async (tx) => {
        const items = await store.wakeLost(tx, this.deps.parkedLostSeconds, SWEEP_PAGE);
        await this.enqueueWoken(tx, items);
        return items.length;
      });
      if (woken > 0) this.worker?.wake();
      if (woken < SWEEP_PAGE) return;
    }
  }

  private async enqueueWoken(tx: Queryable & { engine: EngineDb }, items: readonly WokenItem[]): Promise<void> {
    const jobs: NewJob<ItemJob>[] = items.map((w) => ({
      data: { batch: w.batchId, seq: w.seq, account: w.accountId, mode: w.mode, domain: w.domain, woke: w.key },
      expireInSeconds: this.deps.leaseSeconds[w.mode],
    }));
    await (await this.deps.engine()).queue.enqueue(ITEM_QUEUE, jobs, tx.engine);
  }

  private async defer(queue: JobQueue, job: FetchedJob<ItemJob>, name = ITEM_QUEUE): Promise<void> {
    await queue.enqueue(name, [
      {
        data: job.data,
        expireInSeconds: this.deps.leaseSeconds[job.data.mode],
        startAfter: new Date(Date.now() + DEFER_MS),
      },
    ]);
  }

  private async passTurn(tx: Queryable & { engine: EngineDb }, accountId: string): Promise<void> {
    const { store } = await this.deps.engine();
    await this.enqueue(tx, await store.promote(tx, accountId, 1), accountId);
  }

  private async runItem(store: BatchStore, item: ClaimedItem): Promise<void> {
    const { result, judged } = await this.judge(item);
    const recorded = await store.finish(
      item,
      { ...result },
      judged,
      (tx) => this.ended(tx, item, result),
      (tx, batch) => this.batchEnded(tx, item, batch),
    );
    if (!recorded) this.deps.log.info({ batch: item.batchId, seq: item.seq }, 'batch item finished by another claim');
  }

  /** The item's result line; a failure of the service itself (not of the site) throws, and the job is retried. */
  private async judge(item: ClaimedItem): Promise<{ result: ItemResult; judged: boolean }> {
    const base = { domain: item.domain, ruleset: this.deps.rulesetVersion };
    const failed = (code: string, message: string) => ({
      result: { ...base, verdict: null, score: null, finished_at: new Date().toISOString(), error: { code, message } },
      judged: false,
    });
    try {
      if (item.mode === 'quick') {
        const { report, result } = await this.deps.quickScans.runForBatch(item.domain);
        if (!report) return failed('not_resolvable', result.content[0]?.text ?? 'not scanned');
        return {
          result: {
            ...base,
            verdict: report.verdict,
            score: report.score,
            ruleset: report.ruleset.version,
            finished_at: new Date().toISOString(),
          },
          judged: true,
        };
      }
      const outcome = await this.deps.fullValidations.run(
        item.domain,
        { digest: item.tokenDigest ?? '' },
        undefined,
        undefined,
        'batch',
      );
      const certificate = outcome.document?.certificate;
      if (!certificate) return failed('not_resolvable', outcome.result.content[0]?.text ?? 'not scanned');
      const { payload } = certificate;
      return {
        result: {
          ...base,
          verdict: payload.verdict,
          score: payload.score,
          ruleset: payload.ruleset.version,
          finished_at: new Date().toISOString(),
          certificate_id: payload.id,
        },
        judged: true,
      };
    } catch (err) {
      if (err instanceof ScanDeadlineError)
        return failed(
          'timeout',
          `the scan did not finish within its ${err.deadlineMs} ms deadline; nothing was charged`,
        );
      if (err instanceof PaymentRequiredError) return failed(paymentCode(err.reason), err.message);
      throw err;
    }
  }

  /** An item whose job failed every attempt: it ends with an error result, and its token stays unspent. */
  private async giveUp(job: FetchedJob<ItemJob>): Promise<void> {
    const { store, queue } = await this.deps.engine();
    const item = await store.claim(
      { batchId: job.data.batch, seq: job.data.seq },
      this.deps.leaseSeconds[job.data.mode],
    );
    // A claim still runs it: this job is its last, so it waits for that claim to finish or lapse.
    if (item === 'busy') return this.defer(queue, job, DEAD_ITEM_QUEUE);
    if (typeof item === 'string') return;
    const result: ItemResult = {
      domain: item.domain,
      verdict: null,
      score: null,
      ruleset: this.deps.rulesetVersion,
      finished_at: new Date().toISOString(),
      error: {
        code: 'internal',
        message: `the service failed to run this item ${ITEM_RETRIES + 1} times; nothing was charged`,
      },
    };
    await store.finish(
      item,
      { ...result },
      false,
      (tx) => this.ended(tx, item, result),
      (tx, batch) => this.batchEnded(tx, item, batch),
    );
  }

  /** An item's result is being recorded: the account's turn passes on, and its events go out with the result. */
  private async ended(tx: Queryable & { engine: EngineDb }, item: ClaimedItem, result: ItemResult): Promise<void> {
    await this.passTurn(tx, item.accountId);
    const { events } = this.deps;
    const about = { batch_id: item.batchId, ...result };
    if (result.verdict !== null) await events(tx, item.accountId, 'validation.completed', about);
    if (result.certificate_id) await events(tx, item.accountId, 'certificate.issued', about);
  }

  /** The batch's counts after an item's result: the last item's result completes the batch. */
  private async batchEnded(tx: Queryable & { engine: EngineDb }, item: ClaimedItem, batch: FinishedCount) {
    if (batch.status === 'done' && batch.done + batch.failed === batch.total)
      await this.deps.events(tx, item.accountId, 'batch.completed', {
        batch_id: item.batchId,
        mode: item.mode,
        ...batch,
      });
  }
}

function paymentCode(reason: PaymentRequiredError['reason']): string {
  switch (reason) {
    case 'expired':
      return 'token_expired';
    case 'other_domain':
      return 'token_used';
    case 'in_progress':
      return 'busy';
    default:
      return 'payment_required';
  }
}
