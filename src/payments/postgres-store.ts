// The shared ledger for more than one service process: PostgreSQL. Each reservation is a single conditional
// UPDATE, which PostgreSQL serialises per row, so two processes cannot both take one token.
import pg from 'pg';
import type { StoredCertificate } from './gate.ts';
import { migrations } from './migrations.ts';
import { postgresAccounts } from './postgres-accounts.ts';
import { appendToLog, postgresLog } from './postgres-log.ts';
import { postgresHistory } from './postgres-history.ts';
import {
  storedCertificate,
  type CertificateRow,
  type LedgerStore,
  type NewTokenRow,
  type RawStoredCertificate,
  type ReserveRequest,
  type TokenRow,
  type TokenState,
} from './store.ts';

interface RawRow {
  hash: string;
  created_at: Date;
  expires_at: Date;
  state: TokenState;
  reservation_id: string | null;
  reserved_until: Date | null;
  domain: string | null;
  certificate_id: string | null;
  source: string;
}

const toRow = (r: RawRow): TokenRow => ({
  hash: r.hash,
  createdAt: r.created_at.getTime(),
  expiresAt: r.expires_at.getTime(),
  state: r.state,
  reservationId: r.reservation_id,
  reservedUntil: r.reserved_until?.getTime() ?? null,
  domain: r.domain,
  certificateId: r.certificate_id,
  source: r.source,
});

const at = (ms: number) => new Date(ms);

interface RawCertificateRow {
  id: string;
  domain: string;
  body: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  revocation_reason: string | null;
  revocation_report: string | null;
  superseded_by: string | null;
}

const toCertificateRow = (r: RawCertificateRow): CertificateRow => ({
  id: r.id,
  domain: r.domain,
  body: r.body,
  createdAt: r.created_at.getTime(),
  expiresAt: r.expires_at?.getTime() ?? null,
  revokedAt: r.revoked_at?.getTime() ?? null,
  revocationReason: r.revocation_reason,
  revocationReport: r.revocation_report,
  supersededBy: r.superseded_by,
});

/** Any fixed number: it names the lock every process takes while migrating. */
const MIGRATION_LOCK = 0x64_76_73_6c;

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function migrate(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    // Processes starting together wait here for each other; the transaction releases the lock.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    for (const m of migrations('postgres')) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
  });
}

async function countUnused(pool: pg.Pool, source: string, now: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM tokens WHERE source = $1 AND state = 'issued' AND expires_at > $2`,
    [source, at(now)],
  );
  return rows[0]?.n ?? 0;
}

/** The certificate lookups and the revocation: what a relying party and the operator ask after issue. */
function certificateQueries(
  pool: pg.Pool,
): Pick<
  LedgerStore,
  'certificateRow' | 'latestCertificateId' | 'revoke' | 'evidence' | 'pruneEvidence' | 'pruneReports'
> {
  return {
    async certificateRow(id) {
      const { rows } = await pool.query<RawCertificateRow>(
        `SELECT c.id, c.domain, c.body, c.created_at, c.expires_at, c.revoked_at, c.revocation_reason, c.revocation_report,
           (SELECT n.id FROM certificates n
             WHERE n.domain = c.domain AND n.revoked_at IS NULL
               AND (n.created_at > c.created_at OR (n.created_at = c.created_at AND n.id > c.id))
             ORDER BY n.created_at DESC, n.id DESC LIMIT 1) AS superseded_by
         FROM certificates c WHERE c.id = $1`,
        [id],
      );
      return rows[0] ? toCertificateRow(rows[0]) : null;
    },
    async latestCertificateId(domain) {
      const { rows } = await pool.query<{ id: string }>(
        'SELECT id FROM certificates WHERE domain = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1',
        [domain],
      );
      return rows[0]?.id ?? null;
    },
    async revoke(id, reason, when, report) {
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE certificates SET revoked_at = COALESCE(revoked_at, $2),
           revocation_reason = CASE WHEN revoked_at IS NULL THEN $3 ELSE revocation_reason END,
           revocation_report = CASE WHEN revoked_at IS NULL THEN $4 ELSE revocation_report END
         WHERE id = $1 RETURNING id`,
        [id, at(when), reason, report ?? null],
      );
      return rows.length === 1;
    },
    async evidence(id, now) {
      const { rows } = await pool.query<{ evidence: Buffer | null }>(
        'SELECT evidence FROM certificates WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2)',
        [id, at(now)],
      );
      return rows[0]?.evidence ?? null;
    },
    async pruneEvidence(now, limit) {
      // A range of the partial index certificates_evidence_expiry; rows another instance is pruning are
      // skipped rather than waited for.
      const result = await pool.query(
        `UPDATE certificates SET evidence = NULL WHERE id IN (
           SELECT id FROM certificates WHERE evidence IS NOT NULL AND expires_at <= $1
           ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [at(now), limit],
      );
      return result.rowCount ?? 0;
    },
    async pruneReports(before, limit) {
      // A range of the partial index certificates_report_age, as the evidence above.
      const result = await pool.query(
        `UPDATE certificates SET report = NULL WHERE id IN (
           SELECT id FROM certificates WHERE report IS NOT NULL AND created_at < $1
           ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [at(before), limit],
      );
      return result.rowCount ?? 0;
    },
  };
}

/** The token's life before issue: sold, reserved by a validation, looked up, and handed back. */
function tokenQueries(pool: pg.Pool): Pick<LedgerStore, 'insertTokens' | 'tryReserve' | 'find' | 'release'> {
  return {
    async insertTokens(rows: NewTokenRow[]) {
      if (rows.length === 0) return 0;
      const result = await pool.query(
        `INSERT INTO tokens (hash, created_at, expires_at, source)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::text[])
         ON CONFLICT (hash) DO NOTHING`,
        [
          rows.map((r) => r.hash),
          rows.map((r) => at(r.createdAt)),
          rows.map((r) => at(r.expiresAt)),
          rows.map((r) => r.source),
        ],
      );
      return result.rowCount ?? 0;
    },
    async tryReserve(req: ReserveRequest) {
      const result = await pool.query(
        `UPDATE tokens SET state = 'reserved', reservation_id = $2, reserved_until = $3, domain = $4
         WHERE hash = $1
           AND (state = 'issued' OR (state = 'reserved' AND reserved_until < $5))
           AND expires_at > $5
         RETURNING hash`,
        [req.hash, req.reservationId, at(req.leaseUntil), req.domain, at(req.now)],
      );
      return result.rowCount === 1;
    },
    async find(hash) {
      const { rows } = await pool.query<RawRow>('SELECT * FROM tokens WHERE hash = $1', [hash]);
      return rows[0] ? toRow(rows[0]) : null;
    },
    async release(hash, reservationId) {
      const result = await pool.query(
        `UPDATE tokens SET state = 'issued', reservation_id = NULL, reserved_until = NULL, domain = NULL
         WHERE hash = $1 AND state = 'reserved' AND reservation_id = $2`,
        [hash, reservationId],
      );
      return result.rowCount === 1;
    },
  };
}

export async function openPostgresStore(connectionString: string): Promise<LedgerStore> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }

  return {
    backend: 'postgres',
    accounts: postgresAccounts(pool),
    ...tokenQueries(pool),
    countUnused: (source, now) => countUnused(pool, source, now),
    commit: (hash, reservationId, c: StoredCertificate, now) =>
      inTransaction(pool, async (client) => {
        const redeemed = await client.query(
          `UPDATE tokens SET state = 'redeemed', certificate_id = $1, reserved_until = NULL
           WHERE hash = $2 AND state = 'reserved' AND reservation_id = $3`,
          [c.id, hash, reservationId],
        );
        if (redeemed.rowCount !== 1) return false;
        await client.query(
          `INSERT INTO certificates (id, domain, body, created_at, expires_at, evidence, report)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            c.id,
            c.domain,
            c.body,
            at(now),
            c.expiresAt === undefined ? null : at(c.expiresAt),
            c.evidence ?? null,
            c.report ?? null,
          ],
        );
        // The leaf is the certificate's body, byte for byte as stored and served.
        await appendToLog(client, c.id, Buffer.from(c.body, 'utf8'));
        return true;
      }),
    async certificate(id) {
      const { rows } = await pool.query<RawStoredCertificate>(
        'SELECT id, domain, body, report FROM certificates WHERE id = $1',
        [id],
      );
      return rows[0] ? storedCertificate(rows[0]) : null;
    },
    ...certificateQueries(pool),
    ...postgresHistory(pool),
    ...postgresLog(pool),
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}
