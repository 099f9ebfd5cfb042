// The embedded ledger: one SQLite file in the data dir, in WAL mode so readers never wait for the writer, with the
// transparency log's tree in a second file beside it (sqlite-log.ts) and the evidence in files per week of expiry
// (sqlite-evidence.ts).
// better-sqlite3 is synchronous, so every operation below is atomic within the process, and SQLite's write
// lock makes the conditional updates atomic across processes sharing the file.
import Database from 'better-sqlite3';
import type { StoredCertificate } from './gate.ts';
import { migrations } from './migrations.ts';
import { sqliteAccounts } from './sqlite-accounts.ts';
import { moveLedgerEvidence, sqliteEvidence, type EvidenceFiles } from './sqlite-evidence.ts';
import { sqliteHistory } from './sqlite-history.ts';
import { attachTree, reconcileTree, sqliteLog, warmTree } from './sqlite-log.ts';
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
  created_at: number;
  expires_at: number;
  state: TokenState;
  reservation_id: string | null;
  reserved_until: number | null;
  domain: string | null;
  certificate_id: string | null;
  source: string;
}

const toRow = (r: RawRow): TokenRow => ({
  hash: r.hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  state: r.state,
  reservationId: r.reservation_id,
  reservedUntil: r.reserved_until,
  domain: r.domain,
  certificateId: r.certificate_id,
  source: r.source,
});

interface RawCertificateRow {
  id: string;
  domain: string;
  body: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revocation_reason: string | null;
  revocation_report: string | null;
  superseded_by: string | null;
}

const toCertificateRow = (r: RawCertificateRow): CertificateRow => ({
  id: r.id,
  domain: r.domain,
  body: r.body,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  revocationReason: r.revocation_reason,
  revocationReport: r.revocation_report,
  supersededBy: r.superseded_by,
});

/** What runs before a migration's SQL: moving rows out of the ledger file, which SQL over one file cannot do. */
const beforeMigration = (files: EvidenceFiles): Partial<Record<number, (db: Database.Database) => void>> => ({
  15: (db) => moveLedgerEvidence(db, files),
});

function migrate(db: Database.Database, files: EvidenceFiles): void {
  // BEGIN IMMEDIATE takes the write lock of both files first, so two processes opening one new ledger migrate it
  // once, and neither sees the other's commit half done when it reconciles the tree.
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const before = beforeMigration(files);
    for (const m of migrations('sqlite')) {
      if (applied.has(m.version)) continue;
      before[m.version]?.(db);
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }
    reconcileTree(db);
    db.exec('COMMIT');
  } catch (err) {
    // SQLite rolls back by itself on some errors; a second ROLLBACK would then hide the real one.
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** The certificate lookups and the revocation: what a relying party and the operator ask after issue. */
function certificateQueries(
  db: Database.Database,
  files: EvidenceFiles,
): Pick<
  LedgerStore,
  'certificateRow' | 'latestCertificateId' | 'revoke' | 'evidence' | 'pruneEvidence' | 'pruneReports'
> {
  const certificateRow = db.prepare(`
    SELECT c.id, c.domain, c.body, c.created_at, c.expires_at, c.revoked_at, c.revocation_reason, c.revocation_report,
      (SELECT n.id FROM certificates n
        WHERE n.domain = c.domain AND n.revoked_at IS NULL
          AND (n.created_at > c.created_at OR (n.created_at = c.created_at AND n.id > c.id))
        ORDER BY n.created_at DESC, n.id DESC LIMIT 1) AS superseded_by
    FROM certificates c WHERE c.id = ?`);
  const latest = db
    .prepare(
      'SELECT id FROM certificates WHERE domain = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1',
    )
    .pluck();
  const exists = db.prepare('SELECT 1 FROM certificates WHERE id = ?').pluck();
  const revoke = db.prepare(
    'UPDATE certificates SET revoked_at = ?, revocation_reason = ?, revocation_report = ? WHERE id = ? AND revoked_at IS NULL',
  );
  // The certificate's row says whether it is still valid, and its expiry names the evidence's file.
  const unexpired = db.prepare<[string, number], { expires_at: number | null }>(
    'SELECT expires_at FROM certificates WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)',
  );
  // A range of the partial index certificates_report_age.
  const pruneReports = db.prepare(`
    UPDATE certificates SET report = NULL WHERE rowid IN (
      SELECT rowid FROM certificates WHERE report IS NOT NULL AND created_at < ? ORDER BY created_at LIMIT ?)`);

  return {
    certificateRow: async (id) => {
      const r = certificateRow.get(id) as RawCertificateRow | undefined;
      return r ? toCertificateRow(r) : null;
    },
    latestCertificateId: async (domain) => (latest.get(domain) as string | undefined) ?? null,
    revoke: async (id, reason, at, report) => {
      if (exists.get(id) === undefined) return false;
      revoke.run(at, reason, report ?? null, id);
      return true;
    },
    evidence: async (id, now) => {
      const valid = unexpired.get(id, now);
      return valid ? files.read(id, valid.expires_at) : null;
    },
    // Whole weeks, an unlink each, whatever the limit: no row is read (sqlite-evidence.ts).
    pruneEvidence: async (now) => files.prune(now),
    pruneReports: async (before, limit) => pruneReports.run(before, limit).changes,
  };
}

export function openSqliteStore(file: string): LedgerStore {
  const db = new Database(file);
  const files = sqliteEvidence(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    attachTree(db, file);
    migrate(db, files);
    warmTree(db);
  } catch (err) {
    // A file that cannot be migrated must not stay open (and locked) behind the error.
    files.close();
    db.close();
    throw err;
  }

  const insert = db.prepare(
    'INSERT INTO tokens (hash, created_at, expires_at, source) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
  );
  const insertMany = db.transaction((rows: NewTokenRow[]) =>
    rows.reduce((n, r) => n + insert.run(r.hash, r.createdAt, r.expiresAt, r.source).changes, 0),
  );
  const reserve = db.prepare(`
    UPDATE tokens SET state = 'reserved', reservation_id = @reservationId, reserved_until = @leaseUntil, domain = @domain
    WHERE hash = @hash
      AND (state = 'issued' OR (state = 'reserved' AND reserved_until < @now))
      AND expires_at > @now
    RETURNING hash`);
  const find = db.prepare('SELECT * FROM tokens WHERE hash = ?');
  const countUnused = db
    .prepare("SELECT count(*) FROM tokens WHERE source = ? AND state = 'issued' AND expires_at > ?")
    .pluck();
  const redeem = db.prepare(`
    UPDATE tokens SET state = 'redeemed', certificate_id = ?, reserved_until = NULL
    WHERE hash = ? AND state = 'reserved' AND reservation_id = ?`);
  const storeCertificate = db.prepare(
    'INSERT INTO certificates (id, domain, body, created_at, expires_at, report) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const { append: appendToLog, ...logReads } = sqliteLog(db);
  const commit = db.transaction((hash: string, reservationId: string, c: StoredCertificate, now: number) => {
    if (redeem.run(c.id, hash, reservationId).changes !== 1) return false;
    storeCertificate.run(c.id, c.domain, c.body, now, c.expiresAt ?? null, c.report ?? null);
    // The leaf is the certificate's body, byte for byte as stored and served.
    appendToLog(c.id, Buffer.from(c.body, 'utf8'));
    return true;
  });
  const release = db.prepare(`
    UPDATE tokens SET state = 'issued', reservation_id = NULL, reserved_until = NULL, domain = NULL
    WHERE hash = ? AND state = 'reserved' AND reservation_id = ?`);
  const certificate = db.prepare('SELECT id, domain, body, report FROM certificates WHERE id = ?');

  return {
    backend: 'sqlite',
    accounts: sqliteAccounts(db),
    insertTokens: async (rows) => insertMany(rows),
    tryReserve: async (req: ReserveRequest) => reserve.get(req) !== undefined,
    find: async (hash) => {
      const r = find.get(hash) as RawRow | undefined;
      return r ? toRow(r) : null;
    },
    countUnused: async (source, now) => countUnused.get(source, now) as number,
    commit: async (hash, reservationId, c, now) => {
      // The evidence first, committed in its own file, then the certificate (sqlite-evidence.ts: the order).
      if (c.evidence) files.store({ certificateId: c.id, expiresAt: c.expiresAt ?? null, evidence: c.evidence });
      return commit(hash, reservationId, c, now);
    },
    release: async (hash, reservationId) => release.run(hash, reservationId).changes === 1,
    certificate: async (id) => {
      const r = certificate.get(id) as RawStoredCertificate | undefined;
      return r ? storedCertificate(r) : null;
    },
    ...certificateQueries(db, files),
    ...sqliteHistory(db),
    ...logReads,
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    close: async () => {
      files.close();
      db.close();
    },
  };
}
