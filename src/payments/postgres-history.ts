// The history of a domain in the PostgreSQL ledger (history-store.ts).
import type pg from 'pg';
import type { HistoryRow, HistoryStore } from './history-store.ts';

interface RawHistoryRow {
  id: string;
  body: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  revocation_reason: string | null;
  revocation_report: string | null;
}

const toHistoryRow = (r: RawHistoryRow): HistoryRow => ({
  id: r.id,
  body: r.body,
  createdAt: r.created_at.getTime(),
  expiresAt: r.expires_at?.getTime() ?? null,
  revokedAt: r.revoked_at?.getTime() ?? null,
  revocationReason: r.revocation_reason,
  revocationReport: r.revocation_report,
});

const COLUMNS = 'id, body, created_at, expires_at, revoked_at, revocation_reason, revocation_report';

export function postgresHistory(pool: pg.Pool): HistoryStore {
  return {
    async history(domain, before, limit) {
      const { rows } = before
        ? await pool.query<RawHistoryRow>(
            `SELECT ${COLUMNS} FROM certificates WHERE domain = $1 AND (created_at, id) < ($2, $3)
             ORDER BY created_at DESC, id DESC LIMIT $4`,
            [domain, new Date(before.createdAt), before.id, limit],
          )
        : await pool.query<RawHistoryRow>(
            `SELECT ${COLUMNS} FROM certificates WHERE domain = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
            [domain, limit],
          );
      return rows.map(toHistoryRow);
    },
  };
}
