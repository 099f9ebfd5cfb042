// Monitors: a domain Full-Validated on a schedule for an account, each run paid by one of the monitor's prepaid
// tokens. The tokens are held in the ledger under the monitor's id (nobody else can spend them; the monitor keeps
// only their hashes). Runs are jobs of the engine every instance shares: a monitor has one job for its next due
// run, written in the transaction that records the run before it, and due times are spread over the interval by
// the monitor's id. A run is claimed before its scan and recorded once; a run the scan could not judge (INCOMPLETE,
// past its deadline, the name not resolving) is tried again with backoff and, after its last attempt, counts
// without a certificate and without spending a token. Each run that issues supersedes the monitor's previous
// certificate; one worse than it (CERTIFIED -> NOT_CONFORMANT) revokes it for `regression`, linking the report that
// found it; a later CERTIFIED run recovers. Every change is announced through the account's webhooks.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { ScanDeadlineError } from '../engine/observe-and-judge.ts';
import type { Report } from '../engine/types.ts';
import type {
  ClaimedRun,
  HeldToken,
  ListPosition,
  MonitorRow,
  MonitorStore,
  RunRecord,
  Tx,
} from '../batches/monitor-store.ts';
import { newMonitorId } from '../batches/monitor-store.ts';
import type { FetchedJob, JobQueue } from '../batches/job-queue.ts';
import type { Logger } from '../lib/log.ts';
import { isoDurationMs } from '../lib/iso-duration.ts';
import type { Hold, TokenHolder } from '../payments/ledger.ts';
import type { Account } from '../payments/accounts.ts';
import type { Certificate } from '../signing/payload.ts';
import type { EventSink } from './batches.ts';
import type { FullValidations } from './full-validations.ts';
import type { ScanSlots } from './scan-slots.ts';
import { SlotWorker } from './slot-worker.ts';

export const MONITOR_QUEUE = 'dvs-monitor-run';
export const DEAD_MONITOR_QUEUE = 'dvs-monitor-run-dead';

/** Attempts of a run the scan could not judge, before it counts without a certificate. */
export const RUN_ATTEMPTS = 4;
/** Waits before the 2nd, 3rd and 4th attempts, each at most a share of the interval (1/16, 1/8, 1/4). */
const RETRY_WAIT_MS = [60_000, 300_000, 900_000] as const;
/** Attempts of a run's job that failed inside the service (not at the site) before it is given up. */
const JOB_RETRIES = 3;
/** How often an idle worker asks the engine for a due run. */
const POLL_MS = 1_000;
/** Tokens one request may add. */
export const MAX_TOKENS_PER_REQUEST = 1000;

export interface MonitorJob {
  monitor: string;
  generation: number;
  /** The due time this job runs (RFC 3339): a job for a run recorded already finds it gone. */
  due: string;
}

export interface MonitorEngine {
  store: MonitorStore;
  queue: JobQueue;
}

export interface MonitorDeps {
  engine: () => Promise<MonitorEngine>;
  tokens: TokenHolder;
  validations: Pick<FullValidations, 'runHeld'>;
  slots: Pick<ScanSlots, 'acquireBatch'>;
  events: EventSink;
  /** The shortest interval accepted (DVS_MONITOR_MIN_INTERVAL, P1D by default). */
  minIntervalMs: number;
  /** How long a run's claim (and its job) lasts: longer than a Full Validation can run. */
  leaseSeconds: number;
  /** Where a run's certificate page is: the report a regression's revocation links. */
  baseUrl: string;
  log: Logger;
}

/** A request the caller must change (400). */
export class MonitorInputError extends Error {
  override name = 'MonitorInputError';
}

/** A payment token the monitor cannot hold (402): nothing was held or changed. */
export class MonitorTokenError extends Error {
  override name = 'MonitorTokenError';
  constructor(
    readonly index: number,
    readonly reason: Extract<Hold, { kind: 'refused' }>['reason'],
    message: string,
  ) {
    super(`payment_tokens[${index}]: ${message}`);
  }
}

/** The account has as many monitors as it may (403): nothing was held or made. */
export class MonitorLimitError extends Error {
  override name = 'MonitorLimitError';
  constructor(readonly limit: number) {
    super(
      `this account may have at most ${limit} monitors; delete one it no longer needs, or ask the operator for a higher limit`,
    );
  }
}

/** A change that the monitor's state does not allow (409). */
export class MonitorConflictError extends Error {
  override name = 'MonitorConflictError';
}

/** Where in each interval a monitor's runs fall: spread by its id, the same on every instance. */
export function dueOffsetMs(id: string, intervalMs: number): number {
  const h = createHash('sha256').update(id).digest();
  return h.readUIntBE(0, 6) % intervalMs;
}

/** The monitor's first due time after `after`: its runs fall at k * interval + its offset since the epoch. */
export function nextDueAfter(after: number, intervalMs: number, id: string): Date {
  const offset = dueOffsetMs(id, intervalMs);
  return new Date((Math.floor((after - offset) / intervalMs) + 1) * intervalMs + offset);
}

/** The wait before attempt `attempt + 1` of a run. */
export function retryWaitMs(attempt: number, intervalMs: number): number {
  const i = Math.min(attempt, RETRY_WAIT_MS.length) - 1;
  return Math.min(RETRY_WAIT_MS[i]!, intervalMs / (16 >> i));
}

const RANK: Record<string, number> = { CERTIFIED: 2, NOT_CONFORMANT: 1 };

/** ISO 8601 text of a span in ms, for messages. */
const isoOf = (ms: number) => (ms % 86_400_000 === 0 ? `P${ms / 86_400_000}D` : `PT${ms / 1000}S`);

export class Monitors {
  private worker: SlotWorker<MonitorJob> | null = null;

  constructor(private readonly deps: MonitorDeps) {}

  static async prepare(queue: JobQueue): Promise<void> {
    await queue.ensureQueue({ name: DEAD_MONITOR_QUEUE, retryLimit: 0, retryDelaySeconds: 0 });
    await queue.ensureQueue({
      name: MONITOR_QUEUE,
      retryLimit: JOB_RETRIES,
      retryDelaySeconds: 5,
      deadLetter: DEAD_MONITOR_QUEUE,
    });
  }

  private interval(text: string): number {
    const parsed = isoDurationMs(text);
    if ('problem' in parsed) throw new MonitorInputError(`interval: ${parsed.problem}`);
    if (parsed.ms < this.deps.minIntervalMs)
      throw new MonitorInputError(`interval: at least ${isoOf(this.deps.minIntervalMs)} between two runs`);
    return parsed.ms;
  }

  /** Holds every token for the monitor, or none: one refused gives the others back. */
  private async holdAll(monitorId: string, domain: string, tokens: readonly string[]): Promise<HeldToken[]> {
    const seen = new Set<string>();
    tokens.forEach((t, i) => {
      if (seen.has(t)) throw new MonitorInputError(`payment_tokens[${i}]: the same token is listed twice`);
      seen.add(t);
    });
    const held: HeldToken[] = [];
    for (const [i, token] of tokens.entries()) {
      const h = await this.deps.tokens.hold(token, domain, monitorId);
      if (h.kind === 'refused') {
        await this.giveBack(
          monitorId,
          held.map((t) => t.hash),
        );
        throw new MonitorTokenError(i, h.reason, h.message);
      }
      held.push({ hash: h.hash, expiresAt: new Date(h.expiresAt) });
    }
    return held;
  }

  private async giveBack(monitorId: string, hashes: readonly string[]): Promise<void> {
    for (const hash of hashes) await this.deps.tokens.releaseHeld(hash, monitorId);
  }

  private async enqueue(
    tx: Tx | null,
    id: string,
    generation: number,
    due: Date,
    startAfter = due,
    name = MONITOR_QUEUE,
  ): Promise<void> {
    const { queue } = await this.deps.engine();
    const data: MonitorJob = { monitor: id, generation, due: due.toISOString() };
    await queue.enqueue(name, [{ data, startAfter, expireInSeconds: this.deps.leaseSeconds }], tx?.engine);
  }

  async create(account: Account, domain: string, intervalText: string, tokens: readonly string[]): Promise<MonitorRow> {
    const intervalMs = this.interval(intervalText);
    const id = newMonitorId();
    const held = await this.holdAll(id, domain, tokens);
    try {
      const { store, queue } = await this.deps.engine();
      const nextDueAt = nextDueAfter(Date.now(), intervalMs, id);
      await queue.db.transaction(async (tx) => {
        if ((await store.countLocked(tx, account.id)) >= account.maxMonitors)
          throw new MonitorLimitError(account.maxMonitors);
        await store.insert(
          tx,
          { id, accountId: account.id, domain, interval: intervalText, intervalMs, nextDueAt },
          held,
        );
        await this.enqueue(tx, id, 0, nextDueAt);
      });
      this.worker?.wake();
      return (await store.get(id, account.id))!;
    } catch (err) {
      await this.giveBack(
        id,
        held.map((t) => t.hash),
      );
      throw err;
    }
  }

  async get(account: Account, id: string): Promise<MonitorRow | null> {
    return (await this.deps.engine()).store.get(id, account.id);
  }

  /** Up to `limit` of the account's monitors after `after`, oldest first. */
  async list(account: Account, after: ListPosition | null, limit: number): Promise<MonitorRow[]> {
    return (await this.deps.engine()).store.list(account.id, after, limit);
  }

  /** Changes the interval or pauses and resumes; null when the account has no such monitor. */
  async update(
    account: Account,
    id: string,
    change: { interval?: string; paused?: boolean },
  ): Promise<MonitorRow | null> {
    const intervalMs = change.interval === undefined ? undefined : this.interval(change.interval);
    const { store, queue } = await this.deps.engine();
    const found = await queue.db.transaction(async (tx) => {
      const m = await store.lock(tx, id, account.id);
      if (!m) return false;
      const ms = intervalMs ?? m.intervalMs;
      const pause = change.paused ?? m.paused !== null;
      if (ms === m.intervalMs && pause === (m.paused !== null)) return true;
      if (!pause && m.credits === 0)
        throw new MonitorConflictError(`monitor ${id} has no payment token left: add tokens and it resumes by itself`);
      const nextDueAt = pause ? null : nextDueAfter(Date.now(), ms, id);
      const generation = await store.reschedule(tx, id, {
        paused: pause ? (change.paused ? 'requested' : m.paused) : null,
        nextDueAt,
        ...(change.interval === undefined ? {} : { interval: { text: change.interval, ms } }),
      });
      if (nextDueAt) await this.enqueue(tx, id, generation, nextDueAt);
      return true;
    });
    this.worker?.wake();
    return found ? store.get(id, account.id) : null;
  }

  /** Adds prepaid tokens; a monitor paused for want of them resumes. Null when the account has no such monitor. */
  async addTokens(account: Account, id: string, tokens: readonly string[]): Promise<MonitorRow | null> {
    const { store, queue } = await this.deps.engine();
    const m = await store.get(id, account.id);
    if (!m) return null;
    const held = await this.holdAll(id, m.domain, tokens);
    try {
      const found = await queue.db.transaction(async (tx) => {
        const locked = await store.lock(tx, id, account.id);
        if (!locked) return false;
        await store.addTokens(tx, id, held);
        if (locked.paused === 'no_credits') {
          const nextDueAt = nextDueAfter(Date.now(), locked.intervalMs, id);
          const generation = await store.reschedule(tx, id, { paused: null, nextDueAt });
          await this.enqueue(tx, id, generation, nextDueAt);
        }
        return true;
      });
      if (!found)
        await this.giveBack(
          id,
          held.map((t) => t.hash),
        );
      return found ? store.get(id, account.id) : null;
    } catch (err) {
      await this.giveBack(
        id,
        held.map((t) => t.hash),
      );
      throw err;
    }
  }

  /** Deletes the monitor and gives its unspent tokens back to their buyer; false when there is no such monitor. */
  async remove(account: Account, id: string): Promise<boolean> {
    const hashes = await (await this.deps.engine()).store.remove(id, account.id);
    if (hashes === null) return false;
    await this.giveBack(id, hashes);
    return true;
  }

  /** Starts this instance's worker: it takes due runs while a batch slot is free. */
  async start(): Promise<void> {
    const { queue } = await this.deps.engine();
    await queue.work<MonitorJob>(DEAD_MONITOR_QUEUE, (job) => this.giveUp(job));
    this.worker ??= new SlotWorker<MonitorJob>({
      queue,
      name: MONITOR_QUEUE,
      slots: this.deps.slots,
      pollMs: POLL_MS,
      log: this.deps.log,
      handle: (job) => this.handle(queue, job),
    });
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
  }

  private async handle(queue: JobQueue, job: FetchedJob<MonitorJob>): Promise<void> {
    const { store } = await this.deps.engine();
    let held: ClaimedRun | null = null;
    try {
      const run = await store.claim(this.jobRef(job.data), this.deps.leaseSeconds);
      if (run === 'stale') {
        // Recorded already, or the schedule changed since the job was written: nothing to do.
      } else if ('busyUntil' in run) {
        await this.deferPast(run.busyUntil, job.data);
      } else {
        held = run;
        await this.execute(run);
      }
      await queue.complete(MONITOR_QUEUE, job.id);
    } catch (err) {
      this.deps.log.warn(
        { err: (err as Error).message, monitor: job.data.monitor },
        'monitor run failed; the queue retries it',
      );
      if (held) await store.unclaim(held).catch(() => undefined);
      await queue.fail(MONITOR_QUEUE, job.id, err as Error).catch(() => undefined);
    }
  }

  /** The job again once the claim that holds its run has finished or lapsed. */
  private deferPast(busyUntil: Date, data: MonitorJob, name = MONITOR_QUEUE): Promise<void> {
    const again = new Date(busyUntil.getTime() + 1000);
    return this.enqueue(null, data.monitor, data.generation, new Date(data.due), again, name);
  }

  private jobRef(data: MonitorJob) {
    return { id: data.monitor, generation: data.generation, dueAt: new Date(data.due) };
  }

  /** One attempt of a claimed run, to its record (or its next attempt). */
  private async execute(run: ClaimedRun): Promise<void> {
    const { tokens } = this.deps;
    if (!run.tokenHash) return this.record(run, { outcome: 'failed', verdict: null, score: null, certificateId: null });
    const state = await tokens.heldState(run.tokenHash, run.monitorId);
    if (state.kind === 'spent') {
      // An earlier attempt issued the certificate and stopped before recording it: record that one.
      const stored = await tokens.certificate(state.certificateId);
      if (!stored) throw new Error(`certificate ${state.certificateId} of a spent monitor token is not in the ledger`);
      const certificate = JSON.parse(stored.body) as Certificate;
      const report = stored.report ? (JSON.parse(gunzipSync(stored.report).toString('utf8')) as Report) : null;
      return this.issued(run, certificate, report?.ruleset.version ?? certificate.payload.ruleset.version);
    }
    if (state.kind === 'lost') return this.dropLost(run, run.tokenHash);
    const hash = run.tokenHash;
    let outcome;
    try {
      outcome = await this.deps.validations.runHeld(
        run.domain,
        {
          commit: async (stored) => {
            if (!(await tokens.spendHeld(hash, run.monitorId, stored)))
              throw new Error(`monitor token ${hash.slice(0, 12)}… could not be spent: it is no longer held`);
          },
          // A held token stays held when nothing was issued: the next attempt spends it.
          release: async () => undefined,
        },
        (report) => report.verdict !== 'INCOMPLETE',
      );
    } catch (err) {
      if (!(err instanceof ScanDeadlineError)) throw err;
      return this.notJudged(run, null, `the scan did not finish within its ${err.deadlineMs} ms deadline`);
    }
    if (outcome.kind === 'issued') return this.issued(run, outcome.certificate, outcome.report.ruleset.version);
    if (outcome.kind === 'declined')
      return this.notJudged(run, outcome.report, 'a required rule could not be evaluated (INCOMPLETE)');
    return this.notJudged(run, null, outcome.text);
  }

  /**
   * The ledger no longer holds the run's token for the monitor (given back or changed by hand): it no longer
   * counts as a credit, and the run is tried again at once with the next token.
   */
  private async dropLost(run: ClaimedRun, hash: string): Promise<void> {
    const { store, queue } = await this.deps.engine();
    this.deps.log.warn({ monitor: run.monitorId, token: hash.slice(0, 12) }, 'monitor token no longer held; dropped');
    await queue.db.transaction(async (tx) => {
      if (!(await store.unclaim(run, tx))) return;
      await store.dropToken(tx, run, hash);
      await this.enqueue(tx, run.monitorId, run.generation, run.dueAt, new Date());
    });
  }

  /** A run the scan could not judge: tried again with backoff, then counted without a certificate. */
  private async notJudged(run: ClaimedRun, report: Report | null, why: string): Promise<void> {
    if (run.attempt < RUN_ATTEMPTS) {
      const { store, queue } = await this.deps.engine();
      const retryAt = new Date(Date.now() + retryWaitMs(run.attempt, run.intervalMs));
      await queue.db.transaction(async (tx) => {
        if (await store.unclaim(run, tx)) await this.enqueue(tx, run.monitorId, run.generation, run.dueAt, retryAt);
      });
      this.deps.log.info({ monitor: run.monitorId, attempt: run.attempt, why }, 'monitor run not judged; trying again');
      return;
    }
    await this.record(
      run,
      { outcome: 'incomplete', verdict: report?.verdict ?? null, score: report?.score ?? null, certificateId: null },
      { reason: why, attempts: run.attempt },
    );
  }

  /** A run that issued a certificate: the previous one superseded, or revoked when the verdict got worse. */
  private async issued(run: ClaimedRun, certificate: Certificate, ruleset: string): Promise<void> {
    const { payload } = certificate;
    const report = `${this.deps.baseUrl}/certificates/${payload.id}`;
    const previous = run.current && run.current.certificateId !== payload.id ? run.current : null;
    if (previous && (RANK[payload.verdict] ?? 0) < (RANK[previous.verdict] ?? 0))
      await this.deps.tokens.revoke(previous.certificateId, 'regression', Date.now(), report);
    await this.record(
      run,
      { outcome: 'issued', verdict: payload.verdict, score: payload.score, certificateId: payload.id },
      { ruleset, report, previous },
    );
  }

  /** Records the run, moves the schedule on and writes its events, in one transaction. */
  private async record(
    run: ClaimedRun,
    result: Omit<RunRecord, 'nextDueAt'>,
    about: {
      reason?: string;
      attempts?: number;
      ruleset?: string;
      report?: string;
      previous?: ClaimedRun['current'];
    } = {},
  ): Promise<void> {
    const { store } = await this.deps.engine();
    const { events } = this.deps;
    const nextDueAt = nextDueAfter(Math.max(Date.now(), run.dueAt.getTime()), run.intervalMs, run.monitorId);
    const recorded = await store.finish(run, { ...result, nextDueAt }, async (tx, after) => {
      if (after.next) await this.enqueue(tx, run.monitorId, after.generation, after.next);
      const base = { monitor_id: run.monitorId, domain: run.domain };
      const emit = (type: Parameters<EventSink>[2], data: Record<string, unknown>) =>
        events(tx, run.accountId, type, { ...base, ...data });
      const finishedAt = new Date().toISOString();
      if (result.outcome === 'issued') {
        const cert = { certificate_id: result.certificateId, verdict: result.verdict, score: result.score };
        await emit('validation.completed', { ...cert, ruleset: about.ruleset, finished_at: finishedAt });
        await emit('certificate.issued', { ...cert, ruleset: about.ruleset });
        const previous = about.previous;
        if (previous) {
          await emit('certificate.superseded', {
            certificate_id: previous.certificateId,
            superseded_by: result.certificateId,
          });
          const before = RANK[previous.verdict] ?? 0;
          const now = RANK[result.verdict ?? ''] ?? 0;
          if (now < before) {
            await emit('certificate.revoked', {
              certificate_id: previous.certificateId,
              reason: 'regression',
              report: about.report,
            });
            await emit('validation.regressed', {
              ...cert,
              previous_certificate_id: previous.certificateId,
              previous_verdict: previous.verdict,
              report: about.report,
            });
          } else if (now > before) {
            await emit('validation.recovered', {
              ...cert,
              previous_certificate_id: previous.certificateId,
              previous_verdict: previous.verdict,
            });
          }
        }
      } else if (result.outcome === 'incomplete') {
        await emit('validation.completed', {
          certificate_id: null,
          verdict: result.verdict ?? 'INCOMPLETE',
          score: result.score,
          finished_at: finishedAt,
          attempts: about.attempts,
          reason: about.reason,
          current_certificate_id: run.current?.certificateId ?? null,
        });
      }
      if (after.credits === 1) await emit('monitor.credits_low', { credits: 1 });
      if (after.paused) await emit('monitor.paused', { reason: 'no_credits', credits: 0 });
    });
    if (!recorded) this.deps.log.info({ monitor: run.monitorId }, 'monitor run recorded by another claim');
  }

  /** A run whose job failed every attempt inside the service: it counts as failed, and the schedule goes on. */
  private async giveUp(job: FetchedJob<MonitorJob>): Promise<void> {
    const { store } = await this.deps.engine();
    const run = await store.claim(this.jobRef(job.data), this.deps.leaseSeconds);
    if (run === 'stale') return;
    // A claim still holds the run: this job is its last, so it looks again once that claim finished or lapsed.
    if ('busyUntil' in run) return this.deferPast(run.busyUntil, job.data, DEAD_MONITOR_QUEUE);
    this.deps.log.warn(
      { monitor: run.monitorId, due: job.data.due },
      'monitor run failed every attempt; it is skipped',
    );
    await this.record(run, { outcome: 'failed', verdict: null, score: null, certificateId: null });
  }
}
