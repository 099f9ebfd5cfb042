// The history of a domain in the SQLite ledger (history-store.ts).
import type Database from 'better-sqlite3';
import type { HistoryRow, HistoryStore } from './history-store.ts';

interface RawHistoryRow {
  id: string;
  body: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revocation_reason: string | null;
  revocation_report: string | null;
}

const toHistoryRow = (r: RawHistoryRow): HistoryRow => ({
  id: r.id,
  body: r.body,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  revocationReason: r.revocation_reason,
  revocationReport: r.revocation_report,
});

const COLUMNS = 'id, body, created_at, expires_at, revoked_at, revocation_reason, revocation_report';

export function sqliteHistory(db: Database.Database): HistoryStore {
  const first = db.prepare(
    `SELECT ${COLUMNS} FROM certificates WHERE domain = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const after = db.prepare(
    `SELECT ${COLUMNS} FROM certificates WHERE domain = ? AND (created_at, id) < (?, ?)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  return {
    history: async (domain, before, limit) =>
      (
        (before ? after.all(domain, before.createdAt, before.id, limit) : first.all(domain, limit)) as RawHistoryRow[]
      ).map(toHistoryRow),
  };
}
