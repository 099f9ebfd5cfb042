// Accounts in the embedded ledger file. better-sqlite3 runs each statement atomically, and SQLite's write lock
// makes the quota's conditional update atomic across the processes sharing the file (`dvs accounts` beside a
// running service).
import type Database from 'better-sqlite3';
import type { AccountRow, AccountStore } from './account-store.ts';

interface RawAccount {
  id: string;
  name: string;
  key_hash: string;
  domains_per_day: number;
  max_batch: number;
  concurrency: number;
  max_monitors: number;
  created_at: number;
  revoked_at: number | null;
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
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  quotaDay: r.quota_day,
  quotaUsed: r.quota_used,
});

export function sqliteAccounts(db: Database.Database): AccountStore {
  const insert = db.prepare(`
    INSERT INTO accounts (id, name, key_hash, domains_per_day, max_batch, concurrency, max_monitors, created_at)
    VALUES (@id, @name, @keyHash, @domainsPerDay, @maxBatch, @concurrency, @maxMonitors, @createdAt)
    ON CONFLICT (name) DO NOTHING`);
  const byKey = db.prepare('SELECT * FROM accounts WHERE key_hash = ?');
  const byName = db.prepare('SELECT * FROM accounts WHERE name = ?');
  const all = db.prepare('SELECT * FROM accounts ORDER BY name');
  const revoke = db.prepare('UPDATE accounts SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL');
  const charge = db
    .prepare(
      `UPDATE accounts
         SET quota_used = (CASE WHEN quota_day = @day THEN quota_used ELSE 0 END) + @count, quota_day = @day
       WHERE id = @id AND revoked_at IS NULL
         AND (CASE WHEN quota_day = @day THEN quota_used ELSE 0 END) + @count <= domains_per_day
       RETURNING quota_used`,
    )
    .pluck();
  const refund = db.prepare(
    'UPDATE accounts SET quota_used = max(quota_used - @count, 0) WHERE id = @id AND quota_day = @day',
  );
  const one = (r: unknown) => (r ? toAccount(r as RawAccount) : null);
  return {
    insertAccount: async (row) => insert.run(row).changes === 1,
    accountByKeyHash: async (keyHash) => one(byKey.get(keyHash)),
    accountByName: async (name) => one(byName.get(name)),
    accounts: async () => (all.all() as RawAccount[]).map(toAccount),
    revokeAccount: async (name, at) => revoke.run(at, name).changes === 1,
    chargeQuota: async (id, day, count) => (charge.get({ id, day, count }) as number | undefined) ?? null,
    refundQuota: async (id, day, count) => {
      refund.run({ id, day, count });
    },
  };
}
