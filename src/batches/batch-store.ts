// The batch rows: made with their jobs in one transaction, claimed before a scan, finished once with their
// result, cancelled, and read back. Every statement is one atomic step keyed by an index, so any number of
// instances can work one batch: a claim or a result written twice changes nothing the second time.
import { randomBytes } from 'node:crypto';
import type { EngineDb, Queryable, QueueDatabase } from './queue-database.ts';

export type BatchMode = 'quick' | 'full';
export type BatchStatus = 'queued' | 'running' | 'done' | 'cancelled';

export interface BatchRow {
  id: string;
  accountId: string;
  mode: BatchMode;
  status: BatchStatus;
  total: number;
  done: number;
  failed: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface NewItem {
  domain: string;
  /** A full item's payment: the digest of its token (src/payments/gate.ts, TokenDigest). */
  tokenDigest?: string;
}

/** An item as its worker runs it. */
export interface ClaimedItem {
  batchId: string;
  seq: number;
  accountId: string;
  mode: BatchMode;
  domain: string;
  tokenDigest: string | null;
  claimId: string;
}

/**
 * Why a claim took nothing: the item is finished (its turn was handed on with its result), cancelled (its turn
 * is free again), or another claim runs it now.
 */
export type ClaimRefusal = 'finished' | 'cancelled' | 'busy';

/** One finished item's result line, with its cursor. */
export interface ResultRow {
  resultNo: number;
  result: Record<string, unknown>;
}

interface RawBatch {
  id: string;
  account_id: string;
  mode: BatchMode;
  status: BatchStatus;
  total: number;
  done: number;
  failed: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const toBatch = (r: RawBatch): BatchRow => ({
  id: r.id,
  accountId: r.account_id,
  mode: r.mode,
  status: r.status,
  total: r.total,
  done: r.done,
  failed: r.failed,
  createdAt: new Date(r.created_at),
  startedAt: r.started_at && new Date(r.started_at),
  finishedAt: r.finished_at && new Date(r.finished_at),
});

export const newBatchId = (): string => `bat_${randomBytes(12).toString('hex')}`;

/** A batch's counters after an item finished (status 'done' when it was the last). */
export interface FinishedCount {
  status: BatchRow['status'];
  total: number;
  done: number;
  failed: number;
}

/** An item given a job: the job queue is told about it in the same transaction. */
export interface ItemRef {
  batchId: string;
  seq: number;
}

/** An item just given a turn: its job is enqueued in the same transaction. */
export interface PromotedItem extends ItemRef {
  mode: BatchMode;
  domain: string;
}

/** A parked item handed back to the engine (its job is enqueued in the same transaction). */
export interface WokenItem extends PromotedItem {
  accountId: string;
  /** The place it was parked on. */
  key: string;
}

export class BatchStore {
  constructor(private readonly db: QueueDatabase) {}

  /** Items of the account with a job (queued or running): its share of the queue, at most its concurrency. */
  async inWork(tx: Queryable, accountId: string): Promise<number> {
    // Submissions of one account wait for each other here, so two cannot both fill its share.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [accountId]);
    const rows = await tx.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM batch_items WHERE account_id = $1 AND state IN ('queued', 'running')",
      [accountId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Writes the batch and its items (waiting) inside the caller's transaction. */
  async insert(tx: Queryable, id: string, accountId: string, mode: BatchMode, items: readonly NewItem[]) {
    await tx.query('INSERT INTO batches (id, account_id, mode, total) VALUES ($1, $2, $3, $4)', [
      id,
      accountId,
      mode,
      items.length,
    ]);
    await tx.query(
      `INSERT INTO batch_items (batch_id, seq, account_id, domain, token_digest)
       SELECT $1, s.seq, $2, s.domain, s.token
       FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS s (domain, token, seq)
       ORDER BY s.seq`,
      [id, accountId, items.map((i) => i.domain), items.map((i) => i.tokenDigest ?? null)],
    );
  }

  /** Moves the account's next `count` waiting items to queued; the caller enqueues their jobs in `tx`. */
  async promote(tx: Queryable, accountId: string, count: number): Promise<PromotedItem[]> {
    if (count <= 0) return [];
    const rows = await tx.query<{ batch_id: string; seq: number; mode: BatchMode; domain: string }>(
      `UPDATE batch_items i SET state = 'queued'
       FROM batches b
       WHERE b.id = i.batch_id AND (i.batch_id, i.seq) IN (
         SELECT batch_id, seq FROM batch_items WHERE account_id = $1 AND state = 'waiting'
         ORDER BY n LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING i.batch_id, i.seq, b.mode, i.domain`,
      [accountId, count],
    );
    return rows.map((r) => ({ batchId: r.batch_id, seq: r.seq, mode: r.mode, domain: r.domain }));
  }

  async get(id: string, accountId: string): Promise<BatchRow | null> {
    const rows = await this.db.query<RawBatch>('SELECT * FROM batches WHERE id = $1 AND account_id = $2', [
      id,
      accountId,
    ]);
    return rows[0] ? toBatch(rows[0]) : null;
  }

  /**
   * Parks a queued item on the politeness place it waits for (`key`), from where it was parked before (`from`,
   * null: it had a job): the caller completes its job. False when the item is no longer queued there (finished,
   * cancelled, running, or woken meanwhile).
   */
  async park(ref: ItemRef, key: string, from: string | null): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE batch_items SET parked_on = $3, parked_at = now()
       WHERE batch_id = $1 AND seq = $2 AND state = 'queued' AND parked_on IS NOT DISTINCT FROM $4 RETURNING seq`,
      [ref.batchId, ref.seq, key, from],
    );
    return rows.length === 1;
  }

  /** Takes a parked item back for the job that parked it; false when a release woke it first (a job has it). */
  async unpark(ref: ItemRef, key: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE batch_items SET parked_on = NULL, parked_at = NULL
       WHERE batch_id = $1 AND seq = $2 AND parked_on = $3 RETURNING seq`,
      [ref.batchId, ref.seq, key],
    );
    return rows.length === 1;
  }

  /**
   * Wakes the oldest item parked on each of these places (they were just released), inside the caller's
   * transaction: the caller enqueues their jobs in it.
   */
  async wake(tx: Queryable, keys: readonly string[]): Promise<WokenItem[]> {
    if (keys.length === 0) return [];
    return this.unparked(
      tx,
      `SELECT w.batch_id, w.seq, k.key FROM unnest($1::text[]) AS k (key)
       CROSS JOIN LATERAL (SELECT batch_id, seq FROM batch_items WHERE parked_on = k.key
         ORDER BY n LIMIT 1 FOR UPDATE SKIP LOCKED) w`,
      [keys],
    );
  }

  /** Wakes up to `limit` items parked before `seconds` ago: their wake-up was lost. */
  async wakeLost(tx: Queryable, seconds: number, limit: number): Promise<WokenItem[]> {
    return this.unparked(
      tx,
      `SELECT batch_id, seq, parked_on AS key FROM batch_items
       WHERE parked_on IS NOT NULL AND parked_at < now() - make_interval(secs => $1)
       ORDER BY parked_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [seconds, limit],
    );
  }

  private async unparked(tx: Queryable, chosen: string, params: unknown[]): Promise<WokenItem[]> {
    const rows = await tx.query<{
      batch_id: string;
      seq: number;
      account_id: string;
      mode: BatchMode;
      domain: string;
      key: string;
    }>(
      `UPDATE batch_items i SET parked_on = NULL, parked_at = NULL
       FROM batches b, (${chosen}) AS w
       WHERE i.batch_id = w.batch_id AND i.seq = w.seq AND b.id = i.batch_id
       RETURNING i.batch_id, i.seq, i.account_id, b.mode, i.domain, w.key`,
      params,
    );
    return rows.map((r) => ({
      batchId: r.batch_id,
      seq: r.seq,
      accountId: r.account_id,
      mode: r.mode,
      domain: r.domain,
      key: r.key,
    }));
  }

  /** Takes an item for a run: a queued one, or a running one whose lease lapsed (its instance died). */
  async claim(ref: ItemRef, leaseSeconds: number): Promise<ClaimedItem | ClaimRefusal> {
    const claimId = randomBytes(12).toString('hex');
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx.query<{
        account_id: string;
        domain: string;
        token_digest: string | null;
        mode: BatchMode;
      }>(
        `UPDATE batch_items i SET state = 'running', claim_id = $3, attempts = attempts + 1,
           lease_until = now() + make_interval(secs => $4), parked_on = NULL, parked_at = NULL
         FROM batches b
         WHERE i.batch_id = $1 AND i.seq = $2 AND b.id = i.batch_id
           AND (i.state = 'queued' OR (i.state = 'running' AND i.lease_until < now()))
         RETURNING i.account_id, i.domain, i.token_digest, b.mode`,
        [ref.batchId, ref.seq, claimId, leaseSeconds],
      );
      if (!claimed) {
        const [item] = await tx.query<{ state: string }>(
          'SELECT state FROM batch_items WHERE batch_id = $1 AND seq = $2',
          [ref.batchId, ref.seq],
        );
        if (item?.state === 'running') return 'busy';
        return item?.state === 'cancelled' ? 'cancelled' : 'finished';
      }
      await tx.query("UPDATE batches SET status = 'running', started_at = now() WHERE id = $1 AND status = 'queued'", [
        ref.batchId,
      ]);
      return {
        ...ref,
        accountId: claimed.account_id,
        mode: claimed.mode,
        domain: claimed.domain,
        tokenDigest: claimed.token_digest,
        claimId,
      };
    });
  }

  /**
   * Records the item's result once: only the claim that holds it may. The batch's counters and the result's
   * number move in the same transaction (the batch row's lock orders the numbers as they commit, so a reader
   * resuming after a number never misses an earlier one). Every item of the batch waits for that lock, so it is
   * taken as late as it can be: `first` (the account's turn handed on, the item's events) runs before it, and
   * only the item's row and `last` (what needs the batch's counts) after. False when the claim was lost
   * meanwhile, and nothing is written.
   */
  async finish(
    item: ClaimedItem,
    result: Record<string, unknown>,
    judged: boolean,
    first: (tx: Queryable & { engine: EngineDb }) => Promise<void>,
    last: (tx: Queryable & { engine: EngineDb }, batch: FinishedCount) => Promise<void>,
  ): Promise<boolean> {
    return this.db
      .transaction(async (tx) => {
        await first(tx);
        const [batch] = await tx.query<FinishedCount & { n: number }>(
          `UPDATE batches SET done = done + $2, failed = failed + $3,
             status = CASE WHEN status <> 'cancelled' AND done + failed + 1 >= total THEN 'done' ELSE status END,
             finished_at = CASE WHEN status <> 'cancelled' AND done + failed + 1 >= total THEN now() ELSE finished_at END
           WHERE id = $1 RETURNING done + failed AS n, status, total, done, failed`,
          [item.batchId, judged ? 1 : 0, judged ? 0 : 1],
        );
        const updated = await tx.query(
          `UPDATE batch_items SET state = $4, result = $5, result_no = $6, token_digest = NULL,
             claim_id = NULL, lease_until = NULL
           WHERE batch_id = $1 AND seq = $2 AND state = 'running' AND claim_id = $3 RETURNING seq`,
          [item.batchId, item.seq, item.claimId, judged ? 'done' : 'failed', result, batch?.n],
        );
        // Another claim finished it (this one's lease lapsed): everything above is rolled back.
        if (updated.length !== 1) throw new ClaimLostError();
        await last(tx, { status: batch!.status, total: batch!.total, done: batch!.done, failed: batch!.failed });
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof ClaimLostError) return false;
        throw err;
      });
  }

  /** The item's domain (null: no such item). */
  async domain(ref: ItemRef): Promise<string | null> {
    const [row] = await this.db.query<{ domain: string }>(
      'SELECT domain FROM batch_items WHERE batch_id = $1 AND seq = $2',
      [ref.batchId, ref.seq],
    );
    return row?.domain ?? null;
  }

  /** Gives a claimed item back unrun, so its job's retry need not wait for the lease to lapse. */
  async unclaim(item: ClaimedItem): Promise<void> {
    await this.db.query(
      `UPDATE batch_items SET state = 'queued', claim_id = NULL, lease_until = NULL, attempts = attempts - 1
       WHERE batch_id = $1 AND seq = $2 AND state = 'running' AND claim_id = $3`,
      [item.batchId, item.seq, item.claimId],
    );
  }

  /**
   * Cancels a batch not yet finished: its items not started are dropped with their tokens' digests. False:
   * nothing to cancel. `then` runs in the same transaction with the number of parked items cancelled: they have
   * no job that would hand their account's turns on. The items are locked before the batch row, in the order an
   * item's result takes them (the account's next item, then the batch row), so the two never wait for each other.
   */
  async cancel(
    id: string,
    accountId: string,
    then: (tx: Queryable & { engine: EngineDb }, parked: number) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // A finished or cancelled batch has no waiting or queued item: nothing changes then.
      const [cancelled] = await tx.query<{ parked: number }>(
        `WITH c AS (
           UPDATE batch_items i SET state = 'cancelled', token_digest = NULL, parked_on = NULL, parked_at = NULL
           FROM (SELECT seq, parked_on FROM batch_items
                 WHERE batch_id = $1 AND account_id = $2 AND state IN ('waiting', 'queued') FOR UPDATE) o
           WHERE i.batch_id = $1 AND i.seq = o.seq RETURNING o.parked_on)
         SELECT count(parked_on)::int AS parked FROM c`,
        [id, accountId],
      );
      const rows = await tx.query(
        `UPDATE batches SET status = 'cancelled', finished_at = now()
         WHERE id = $1 AND account_id = $2 AND status IN ('queued', 'running') RETURNING id`,
        [id, accountId],
      );
      if (rows.length === 0) return false;
      await then(tx, cancelled?.parked ?? 0);
      return true;
    });
  }

  /** Up to `limit` results after the cursor, in the order they were finished. */
  async results(id: string, after: number, limit: number): Promise<ResultRow[]> {
    const rows = await this.db.query<{ result_no: number; result: Record<string, unknown> }>(
      `SELECT result_no, result FROM batch_items
       WHERE batch_id = $1 AND result_no > $2 ORDER BY result_no LIMIT $3`,
      [id, after, limit],
    );
    return rows.map((r) => ({ resultNo: r.result_no, result: r.result }));
  }
}

class ClaimLostError extends Error {
  override name = 'ClaimLostError';
}
