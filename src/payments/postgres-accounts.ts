// Accounts in the shared PostgreSQL ledger. The quota is one conditional UPDATE, which PostgreSQL serialises
// per row, so instances charging one account at once never pass its daily limit together.
import type pg from 'pg';
import type { AccountRow, AccountStore } from './account-store.ts';

interface RawAccount {
  id: string;
  name: string;
  key_hash: string;
  domains_per_day: number;
  max_batch: number;
  concurrency: number;
  max_monitors: number;
  created_at: Date;
  revoked_at: Date | null;
  quota_day: string;
  quota_used: number;
}

const toAccount = (r: RawAccount): AccountRow => ({
  id: r.id,
  name: r.name,
  keyHash: r.key_hash,
  domainsPerDay: r.domains_per_day,
  maxBatch: r.max_batch,
  concurrency: r.concurrency,
  maxMonitors: r.max_monitors,
  createdAt: r.created_at.getTime(),
  revokedAt: r.revoked_at?.getTime() ?? null,
  quotaDay: r.quota_day,
  quotaUsed: r.quota_used,
});

export function postgresAccounts(pool: pg.Pool): AccountStore {
  const one = async (sql: string, value: string) => {
    const { rows } = await pool.query<RawAccount>(sql, [value]);
    return rows[0] ? toAccount(rows[0]) : null;
  };
  return {
    async insertAccount(row) {
      const result = await pool.query(
        `INSERT INTO accounts (id, name, key_hash, domains_per_day, max_batch, concurrency, max_monitors, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (name) DO NOTHING`,
        [
          row.id,
          row.name,
          row.keyHash,
          row.domainsPerDay,
          row.maxBatch,
          row.concurrency,
          row.maxMonitors,
          new Date(row.createdAt),
        ],
      );
      return result.rowCount === 1;
    },
    accountByKeyHash: (keyHash) => one('SELECT * FROM accounts WHERE key_hash = $1', keyHash),
    accountByName: (name) => one('SELECT * FROM accounts WHERE name = $1', name),
    async accounts() {
      const { rows } = await pool.query<RawAccount>('SELECT * FROM accounts ORDER BY name');
      return rows.map(toAccount);
    },
    async revokeAccount(name, at) {
      const result = await pool.query('UPDATE accounts SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL', [
        new Date(at),
        name,
      ]);
      return result.rowCount === 1;
    },
    async chargeQuota(id, day, count) {
      const { rows } = await pool.query<{ quota_used: number }>(
        `UPDATE accounts
           SET quota_used = (CASE WHEN quota_day = $2 THEN quota_used ELSE 0 END) + $3, quota_day = $2
         WHERE id = $1 AND revoked_at IS NULL
           AND (CASE WHEN quota_day = $2 THEN quota_used ELSE 0 END) + $3 <= domains_per_day
         RETURNING quota_used`,
        [id, day, count],
      );
      return rows[0]?.quota_used ?? null;
    },
    async refundQuota(id, day, count) {
      await pool.query(
        'UPDATE accounts SET quota_used = greatest(quota_used - $3, 0) WHERE id = $1 AND quota_day = $2',
        [id, day, count],
      );
    },
  };
}
