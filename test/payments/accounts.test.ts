// Accounts and API keys on SQLite (always) and PostgreSQL (when a server answers): hash-only storage, the
// key's life (authenticates until revoked), and the daily quota holding under concurrent charges from
// separate connections, as from separate instances.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/accounts.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { Accounts } from '../../src/payments/accounts.ts';
import { openPostgresStore } from '../../src/payments/postgres-store.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import { freshSchema, postgresReachable } from './postgres.ts';

interface Backend {
  open(): Promise<LedgerStore>;
  /** Every byte of the stored database, to look for a key in. */
  dump(): Promise<string>;
  cleanup(): Promise<void>;
}

function accountContract(name: string, backend: () => Promise<Backend>) {
  describe(`accounts on ${name}`, () => {
    it('stores only the key hash; a key authenticates until its account is revoked', async () => {
      const b = await backend();
      const store = await b.open();
      try {
        const accounts = new Accounts(store.accounts);
        const { key, account } = await accounts.create('acme', { maxBatch: 50, maxMonitors: 3 });
        expect(key).toMatch(/^dvs_key_[A-Za-z0-9_-]{43}$/);
        expect(account).toMatchObject({ name: 'acme', maxBatch: 50, domainsPerDay: 10_000, usedToday: 0 });
        expect(await b.dump()).not.toContain(key.slice(8));
        expect(await accounts.authenticate(key)).toMatchObject({ name: 'acme', maxBatch: 50, maxMonitors: 3 });
        expect(await accounts.authenticate(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeNull();
        expect(await accounts.authenticate('dvs_test_' + key.slice(8))).toBeNull();
        await expect(accounts.create('acme')).rejects.toThrow(/exists already/);
        await expect(accounts.create('Bad Name')).rejects.toThrow(/lower-case/);
        expect(await accounts.revoke('acme')).toBe(true);
        expect(await accounts.revoke('acme')).toBe(false);
        expect(await accounts.authenticate(key)).toBeNull();
        expect((await accounts.list()).map((a) => [a.name, a.revokedAt !== null])).toEqual([['acme', true]]);
      } finally {
        await store.close();
        await b.cleanup();
      }
    });

    it('charges the daily quota atomically across connections, and a new UTC day starts afresh', async () => {
      const b = await backend();
      const stores = [await b.open(), await b.open()];
      let now = Date.parse('2026-11-28T23:59:00Z');
      try {
        const [one, two] = stores.map((s) => new Accounts(s.accounts, () => now));
        const { account } = await one!.create('quota', { domainsPerDay: 10 });
        const charges = await Promise.all(
          Array.from({ length: 24 }, (_, i) => (i % 2 ? one! : two!).charge(account, 1)),
        );
        expect(charges.filter((c) => c === null)).toHaveLength(10);
        expect(charges.find((c) => c !== null)).toEqual({ remaining: 0, retryAfterSeconds: 60 });
        await one!.refund(account, 3);
        expect(await two!.charge(account, 4)).toEqual({ remaining: 3, retryAfterSeconds: 60 });
        expect(await two!.charge(account, 3)).toBeNull();
        now += 120_000;
        expect(await one!.charge(account, 10)).toBeNull();
        expect((await one!.byName('quota'))?.usedToday).toBe(10);
      } finally {
        for (const s of stores) await s.close();
        await b.cleanup();
      }
    });
  });
}

accountContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-accounts-'));
  const file = path.join(dir, 'ledger.sqlite');
  return {
    open: async () => openSqliteStore(file),
    dump: async () => readFileSync(file, 'latin1') + readFileSync(`${file}-wal`, 'latin1'),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const pgUp = await postgresReachable();
describe.skipIf(!pgUp)('PostgreSQL', () => {
  accountContract('PostgreSQL', async () => {
    const schema = await freshSchema();
    return {
      open: () => openPostgresStore(schema.url),
      dump: async () => JSON.stringify(await schema.query('SELECT * FROM accounts')),
      cleanup: () => schema.drop(),
    };
  });
});

describe('dvs accounts', () => {
  it('creates (printing the key once), lists and revokes, in the configured ledger', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-accounts-cli-'));
    const config = loadConfig({ DVS_DATA_DIR: dir });
    const cli = async (...args: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await run(args, {
        config,
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t) },
      });
      return { code, stdout, stderr };
    };
    try {
      const made = await cli('create', 'acme', '--max-batch', '100', '--concurrency', '2', '--max-monitors', '7');
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(/^dvs_key_[A-Za-z0-9_-]{43}\n$/);
      expect(made.stderr).toContain('100 per batch, 2 at once, 7 monitors');
      expect((await cli('create', 'acme')).code).toBe(1);
      const listed = await cli('list');
      expect(listed.stdout).toMatch(/acme\s+active\s+0\/10000\s+100\s+2\s+7\s/);
      expect(listed.stdout).not.toContain(made.stdout.trim());
      expect((await cli('revoke', 'acme')).code).toBe(0);
      expect((await cli('list')).stdout).toMatch(/acme\s+revoked/);
      expect((await cli('revoke', 'nobody')).code).toBe(1);
      await expect(cli('create', 'x', '--max-batch', '0')).rejects.toThrow(/--max-batch/);
      await expect(cli('create', 'x', '--max-monitors', '-1')).rejects.toThrow(/--max-monitors/);
      await expect(cli('list', '--concurrency', '3')).rejects.toThrow(/usage|dvs accounts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
