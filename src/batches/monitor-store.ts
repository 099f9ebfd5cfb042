// The monitor rows: made with their tokens' hashes and first job in one transaction, claimed for a run, a run
// recorded once (its token marked spent, the schedule moved on), and changed by their owner. Every statement is
// keyed by an index and conditional on the claim or the schedule generation, so any number of instances can
// work the same monitors: a run claimed or recorded twice changes nothing the second time. What a run means is
// src/service/monitors.ts's.
import { randomBytes } from 'node:crypto';
import type { EngineDb, Queryable, QueueDatabase } from './queue-database.ts';

export type Tx = Queryable & { engine: EngineDb };

/** Why a monitor does not run: its owner paused it, or it has no token left. */
export type PauseReason = 'requested' | 'no_credits';

export interface MonitorRow {
  id: string;
  accountId: string;
  domain: string;
  interval: string;
  intervalMs: number;
  paused: PauseReason | null;
  generation: number;
  nextDueAt: Date | null;
  certificateId: string | null;
  verdict: string | null;
  createdAt: Date;
  /** Where the monitor stands in its account's list, oldest first. */
  position: ListPosition;
  /** Unspent, unexpired tokens. */
  credits: number;
  lastRun: RunRow | null;
}

/** A place in an account's list of monitors: its order is creation time (microseconds since the epoch), then id. */
export interface ListPosition {
  createdUs: string;
  id: string;
}

export interface RunRow {
  dueAt: Date;
  attempts: number;
  startedAt: Date;
  finishedAt: Date | null;
  outcome: 'issued' | 'incomplete' | 'failed' | null;
  verdict: string | null;
  score: number | null;
  certificateId: string | null;
}

export interface HeldToken {
  hash: string;
  expiresAt: Date;
}

/** A run as its worker holds it. */
export interface ClaimedRun {
  monitorId: string;
  accountId: string;
  domain: string;
  intervalMs: number;
  generation: number;
  dueAt: Date;
  /** 1 for the run's first attempt. */
  attempt: number;
  claimId: string;
  /** The token this run spends; null when the monitor has none left. */
  tokenHash: string | null;
  /** The certificate (and verdict) the run is compared with. */
  current: { certificateId: string; verdict: string } | null;
}

/** Why a claim took nothing: the job is stale (run already, paused, changed, deleted), or another instance runs it now. */
export type ClaimRefusal = 'stale' | { busyUntil: Date };

/** Where the monitor stands once a run is recorded. */
export interface AfterRun {
  /** Unspent, unexpired tokens left. */
  credits: number;
  /** The next run's due time, null when none is scheduled by this run (paused now, or rescheduled meanwhile). */
  next: Date | null;
  /** True when this run spent the last token and paused the monitor. */
  paused: boolean;
  generation: number;
}

/** How a run ended, as recorded. */
export interface RunRecord {
  outcome: 'issued' | 'incomplete' | 'failed';
  verdict: string | null;
  score: number | null;
  certificateId: string | null;
  /** The next run's due time, unless the monitor pauses. */
  nextDueAt: Date;
}

interface RawMonitor {
  id: string;
  account_id: string;
  domain: string;
  interval: string;
  interval_ms: number;
  paused: PauseReason | null;
  generation: number;
  next_due_at: Date | null;
  certificate_id: string | null;
  verdict: string | null;
  created_at: Date;
  created_us: string;
  credits: number;
  last_run: Record<string, unknown> | null;
}

// The monitor with its credits and its last run, each one lookup by index, and its place in the account's list:
// the creation time in whole microseconds (PostgreSQL's resolution, finer than a JS Date) and the id.
const SELECT_MONITOR = `
  SELECT m.id, m.account_id, m.domain, m.interval, m.interval_ms::float8 AS interval_ms, m.paused, m.generation,
    m.next_due_at, m.certificate_id, m.verdict, m.created_at,
    (extract(epoch FROM m.created_at) * 1000000)::bigint::text AS created_us,
    (SELECT count(*)::int FROM monitor_tokens t
      WHERE t.monitor_id = m.id AND t.spent_at IS NULL AND t.expires_at > now()) AS credits,
    (SELECT to_jsonb(r) FROM monitor_runs r WHERE r.monitor_id = m.id ORDER BY r.due_at DESC LIMIT 1) AS last_run
  FROM monitors m`;

const toRun = (r: Record<string, unknown>): RunRow => ({
  dueAt: new Date(r.due_at as string),
  attempts: r.attempts as number,
  startedAt: new Date(r.started_at as string),
  finishedAt: r.finished_at ? new Date(r.finished_at as string) : null,
  outcome: r.outcome as RunRow['outcome'],
  verdict: r.verdict as string | null,
  score: r.score as number | null,
  certificateId: r.certificate_id as string | null,
});

const toMonitor = (r: RawMonitor): MonitorRow => ({
  id: r.id,
  accountId: r.account_id,
  domain: r.domain,
  interval: r.interval,
  intervalMs: Number(r.interval_ms),
  paused: r.paused,
  generation: r.generation,
  nextDueAt: r.next_due_at && new Date(r.next_due_at),
  certificateId: r.certificate_id,
  verdict: r.verdict,
  createdAt: new Date(r.created_at),
  position: { createdUs: r.created_us, id: r.id },
  credits: r.credits,
  lastRun: r.last_run ? toRun(r.last_run) : null,
});

export const newMonitorId = (): string => `mon_${randomBytes(12).toString('hex')}`;

export class MonitorStore {
  constructor(readonly db: QueueDatabase) {}

  async get(id: string, accountId: string, q: Queryable = this.db): Promise<MonitorRow | null> {
    const [row] = await q.query<RawMonitor>(`${SELECT_MONITOR} WHERE m.id = $1 AND m.account_id = $2`, [id, accountId]);
    return row ? toMonitor(row) : null;
  }

  /**
   * Up to `limit` of the account's monitors after `after`, oldest first. The order is an index's (account,
   * creation time, id), so a page starts where the last one ended whatever was created or deleted meanwhile.
   */
  async list(accountId: string, after: ListPosition | null, limit: number): Promise<MonitorRow[]> {
    const rows = after
      ? await this.db.query<RawMonitor>(
          `${SELECT_MONITOR} WHERE m.account_id = $1
             AND (m.created_at, m.id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)
           ORDER BY m.created_at, m.id LIMIT $4`,
          [accountId, after.createdUs, after.id, limit],
        )
      : await this.db.query<RawMonitor>(
          `${SELECT_MONITOR} WHERE m.account_id = $1 ORDER BY m.created_at, m.id LIMIT $2`,
          [accountId, limit],
        );
    return rows.map(toMonitor);
  }

  /**
   * Takes the account's lock on its monitors for the transaction, and counts them: creations of one account
   * wait for each other here, on every instance, so two cannot both pass its limit.
   */
  async countLocked(tx: Queryable, accountId: string): Promise<number> {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('monitors:' || $1))", [accountId]);
    const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors WHERE account_id = $1', [
      accountId,
    ]);
    return row?.n ?? 0;
  }

  async insert(
    tx: Queryable,
    m: { id: string; accountId: string; domain: string; interval: string; intervalMs: number; nextDueAt: Date },
    tokens: readonly HeldToken[],
  ): Promise<void> {
    await tx.query(
      `INSERT INTO monitors (id, account_id, domain, interval, interval_ms, next_due_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [m.id, m.accountId, m.domain, m.interval, m.intervalMs, m.nextDueAt],
    );
    await this.addTokens(tx, m.id, tokens);
  }

  /** Adds tokens (a token already there is not counted twice); returns the credits after. */
  async addTokens(tx: Queryable, id: string, tokens: readonly HeldToken[]): Promise<void> {
    await tx.query(
      `INSERT INTO monitor_tokens (monitor_id, token_hash, expires_at)
       SELECT $1, t.hash, t.expires_at FROM unnest($2::text[], $3::timestamptz[]) AS t (hash, expires_at)
       ON CONFLICT DO NOTHING`,
      [id, tokens.map((t) => t.hash), tokens.map((t) => t.expiresAt)],
    );
  }

  /** The monitor, locked for a change by its owner (null: the account has no such monitor). */
  async lock(tx: Queryable, id: string, accountId: string): Promise<MonitorRow | null> {
    const [row] = await tx.query<{ id: string }>(
      'SELECT id FROM monitors WHERE id = $1 AND account_id = $2 FOR UPDATE',
      [id, accountId],
    );
    return row ? this.get(id, accountId, tx) : null;
  }

  /**
   * Sets the schedule: a new generation (every job of the old one becomes stale), paused or due at `nextDueAt`.
   * Returns the new generation.
   */
  async reschedule(
    tx: Queryable,
    id: string,
    s: { paused: PauseReason | null; nextDueAt: Date | null; interval?: { text: string; ms: number } },
  ): Promise<number> {
    const [row] = await tx.query<{ generation: number }>(
      `UPDATE monitors SET generation = generation + 1, paused = $2, next_due_at = $3,
         interval = COALESCE($4, interval), interval_ms = COALESCE($5, interval_ms)
       WHERE id = $1 RETURNING generation`,
      [id, s.paused, s.nextDueAt, s.interval?.text ?? null, s.interval?.ms ?? null],
    );
    return row!.generation;
  }

  /** Deletes the monitor; returns the hashes of its tokens not spent (the caller gives them back). */
  async remove(id: string, accountId: string): Promise<string[] | null> {
    return this.db.transaction(async (tx) => {
      const tokens = await tx.query<{ token_hash: string }>(
        `SELECT t.token_hash FROM monitors m JOIN monitor_tokens t ON t.monitor_id = m.id
         WHERE m.id = $1 AND m.account_id = $2 AND t.spent_at IS NULL`,
        [id, accountId],
      );
      const deleted = await tx.query('DELETE FROM monitors WHERE id = $1 AND account_id = $2 RETURNING id', [
        id,
        accountId,
      ]);
      return deleted.length === 1 ? tokens.map((t) => t.token_hash) : null;
    });
  }

  /**
   * Takes the monitor's due run for an attempt: only for the job's generation, while the monitor runs, and
   * when no other live claim holds it. The run's row is made at its first attempt, with the token it spends.
   */
  async claim(
    job: { id: string; generation: number; dueAt: Date },
    leaseSeconds: number,
  ): Promise<ClaimedRun | ClaimRefusal> {
    const { id, generation, dueAt } = job;
    const claimId = randomBytes(12).toString('hex');
    return this.db.transaction(async (tx) => {
      const [m] = await tx.query<{
        account_id: string;
        domain: string;
        interval_ms: number;
        next_due_at: Date;
        certificate_id: string | null;
        verdict: string | null;
      }>(
        `UPDATE monitors SET claim_id = $3, lease_until = now() + make_interval(secs => $4)
         WHERE id = $1 AND generation = $2 AND next_due_at = $5 AND paused IS NULL
           AND (claim_id IS NULL OR lease_until < now())
         RETURNING account_id, domain, interval_ms::float8 AS interval_ms, next_due_at, certificate_id, verdict`,
        [id, generation, claimId, leaseSeconds, dueAt],
      );
      if (!m) {
        const [held] = await tx.query<{ lease_until: Date }>(
          `SELECT lease_until FROM monitors
           WHERE id = $1 AND generation = $2 AND next_due_at = $3 AND paused IS NULL AND claim_id IS NOT NULL`,
          [id, generation, dueAt],
        );
        return held ? { busyUntil: new Date(held.lease_until) } : 'stale';
      }
      await tx.query('INSERT INTO monitor_runs (monitor_id, due_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        id,
        m.next_due_at,
      ]);
      // The earliest expiring token, unless an earlier attempt of this run chose one already.
      const [run] = await tx.query<{ attempts: number; token_hash: string | null }>(
        `UPDATE monitor_runs SET attempts = attempts + 1, token_hash = COALESCE(token_hash, (
           SELECT token_hash FROM monitor_tokens WHERE monitor_id = $1 AND spent_at IS NULL AND expires_at > now()
           ORDER BY expires_at, token_hash LIMIT 1))
         WHERE monitor_id = $1 AND due_at = $2 RETURNING attempts, token_hash`,
        [id, m.next_due_at],
      );
      return {
        monitorId: id,
        accountId: m.account_id,
        domain: m.domain,
        intervalMs: Number(m.interval_ms),
        generation,
        dueAt: new Date(m.next_due_at),
        attempt: run!.attempts,
        claimId,
        tokenHash: run!.token_hash,
        current: m.certificate_id && m.verdict ? { certificateId: m.certificate_id, verdict: m.verdict } : null,
      };
    });
  }

  /** Gives the claim back without recording anything (the attempt is tried again later). */
  async unclaim(run: ClaimedRun, tx: Queryable = this.db): Promise<boolean> {
    const rows = await tx.query(
      'UPDATE monitors SET claim_id = NULL, lease_until = NULL WHERE id = $1 AND claim_id = $2 RETURNING id',
      [run.monitorId, run.claimId],
    );
    return rows.length === 1;
  }

  /**
   * Records the run once: only the claim that holds it may. The run's row, its token (spent when it issued a
   * certificate), the monitor's current certificate and its schedule move together: the next due time, or a
   * pause when no token is left (unless the owner changed the schedule during the run, which then stands).
   * `then` runs in the same transaction (it enqueues the next run and writes the events). False when the claim
   * was lost meanwhile, and nothing is written.
   */
  async finish(run: ClaimedRun, record: RunRecord, then: (tx: Tx, after: AfterRun) => Promise<void>): Promise<boolean> {
    return this.db
      .transaction(async (tx) => {
        const [held] = await tx.query<{ generation: number }>(
          'SELECT generation FROM monitors WHERE id = $1 AND claim_id = $2 FOR UPDATE',
          [run.monitorId, run.claimId],
        );
        if (!held) throw new ClaimLostError();
        const issued = record.outcome === 'issued';
        await tx.query(
          `UPDATE monitor_runs SET finished_at = now(), outcome = $3, verdict = $4, score = $5, certificate_id = $6
           WHERE monitor_id = $1 AND due_at = $2`,
          [run.monitorId, run.dueAt, record.outcome, record.verdict, record.score, record.certificateId],
        );
        if (issued && run.tokenHash)
          await tx.query(
            `UPDATE monitor_tokens SET spent_at = now(), certificate_id = $3
             WHERE monitor_id = $1 AND token_hash = $2 AND spent_at IS NULL`,
            [run.monitorId, run.tokenHash, record.certificateId],
          );
        const credits = await this.credits(tx, run.monitorId);
        const onSchedule = held.generation === run.generation;
        const paused = onSchedule && credits === 0;
        const next = onSchedule && !paused ? record.nextDueAt : null;
        const [after] = await tx.query<{ generation: number }>(
          `UPDATE monitors SET claim_id = NULL, lease_until = NULL,
             certificate_id = CASE WHEN $3 THEN $4 ELSE certificate_id END,
             verdict = CASE WHEN $3 THEN $5 ELSE verdict END,
             next_due_at = CASE WHEN $6 THEN $7 ELSE next_due_at END,
             paused = CASE WHEN $8 THEN 'no_credits' ELSE paused END,
             generation = CASE WHEN $8 THEN generation + 1 ELSE generation END
           WHERE id = $1 AND claim_id = $2 RETURNING generation`,
          [run.monitorId, run.claimId, issued, record.certificateId, record.verdict, onSchedule, next, paused],
        );
        await then(tx, { credits, next, paused, generation: after!.generation });
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof ClaimLostError) return false;
        throw err;
      });
  }

  /** A token the ledger no longer holds for the monitor: spent by nothing, it leaves the credits and the run. */
  async dropToken(tx: Queryable, run: ClaimedRun, hash: string): Promise<void> {
    await tx.query(
      'UPDATE monitor_tokens SET spent_at = now() WHERE monitor_id = $1 AND token_hash = $2 AND spent_at IS NULL',
      [run.monitorId, hash],
    );
    await tx.query('UPDATE monitor_runs SET token_hash = NULL WHERE monitor_id = $1 AND due_at = $2', [
      run.monitorId,
      run.dueAt,
    ]);
  }

  async credits(tx: Queryable, id: string): Promise<number> {
    const [row] = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM monitor_tokens WHERE monitor_id = $1 AND spent_at IS NULL AND expires_at > now()`,
      [id],
    );
    return row?.n ?? 0;
  }
}

class ClaimLostError extends Error {
  override name = 'ClaimLostError';
}
