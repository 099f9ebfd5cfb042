// Issue 38: no statement on a write path reads a whole ledger table, on either backend. The ledger is filled
// with 20,000 certificates (tokens, log entries and the log's nodes to match) and 5,000 batch accounts, and
// analysed, so each planner
// chooses with the statistics of a ledger in use; the write paths then run through the Ledger as the service
// runs them, every statement they execute is captured, and each is explained with the values it ran with.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/payments/ledger.ts';
import { evidenceFileOf, sqliteEvidence, weekOf } from '../../src/payments/sqlite-evidence.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import { TransparencyLog } from '../../src/service/transparency-log.ts';
import { keyFromSeed, SIGNING_KID } from '../../src/signing/keys.ts';
import { stringMatching } from '../helpers/typed-json.ts';
import { keySource } from './log-fixtures.ts';
import { postgresReachable } from './postgres.ts';
import {
  capturePostgres,
  captureSqlite,
  postgresFullScans,
  postgresTableReads,
  sqliteFullScans,
  seededSqliteLedger,
  type Captured,
  type SeededSqlite,
  seededPostgresLedger,
  type SeededPostgres,
} from './query-plans.ts';

const ROWS = 20_000;
const TABLES = ['tokens', 'certificates', 'certificate_evidence', 'log_entries', 'log_nodes', 'accounts'];
/** SQLite keeps evidence in files of its own (src/payments/sqlite-evidence.ts), explained apart. */
const SQLITE_TABLES = TABLES.filter((t) => t !== 'certificate_evidence');
const ACCOUNTS = 5_000;
const NOW = Date.parse('2026-11-29T00:00:00Z');
const DAY = 86_400_000;
/** The seeded certificates were issued one a minute up to NOW, each valid 10 days: the oldest have expired. */
const FIRST_ISSUE = NOW - ROWS * 60_000;
const LIFETIME = 10 * DAY;

const ledgerOver = (store: LedgerStore) =>
  new Ledger(store, { mode: 'test', tokenTtlSeconds: 90 * 86_400, reservationLeaseSeconds: 900, now: () => NOW });

/**
 * Every write path: token issue and record, the checkout's cap, reserve, commit (log append), release, revoke,
 * retention, tree head; the batch accounts' creation, key check, quota charge and refund, revocation.
 */
async function writePaths(ledger: Ledger): Promise<void> {
  const [paid, dropped] = await ledger.issue({ count: 2, source: 'checkout' });
  await ledger.record(`dvs_test_${'p'.repeat(43)}`, 'stripe:cs_plans');
  await ledger.unusedCount('checkout');
  const held = await ledger.reserve(paid!.token, 'plans.test');
  if (held.kind !== 'reserved') throw new Error(`not reserved: ${held.kind}`);
  const body = JSON.stringify({ payload: { id: 'dvc_plans', domain: 'plans.test' }, jws: 'sig' });
  await ledger.commit(paid!.token, held.reservationId, {
    id: 'dvc_plans',
    domain: 'plans.test',
    body,
    expiresAt: NOW + 90 * DAY,
    evidence: Buffer.alloc(64, 1),
    report: Buffer.alloc(64, 2),
  });
  const released = await ledger.reserve(dropped!.token, 'plans.test');
  if (released.kind !== 'reserved') throw new Error(`not reserved: ${released.kind}`);
  await ledger.release(dropped!.token, released.reservationId);
  await ledger.revoke('dvc_plans', 'plans test', NOW);
  await ledger.pruneExpiredEvidence(500);
  await ledger.pruneOldReports(7 * 86_400, 500);
  const key = await keyFromSeed(SIGNING_KID, new Uint8Array(32).fill(7), '2026-11-29T00:00:00Z');
  await new TransparencyLog(ledger.log, keySource(key), () => new Date(NOW)).head();
  const { accounts } = ledger;
  const { key: apiKey } = await accounts.create('plans', { domainsPerDay: 2 });
  const account = (await accounts.authenticate(apiKey))!;
  if ((await accounts.charge(account, 1)) !== null) throw new Error('the first charge was refused');
  if ((await accounts.charge(account, 5)) === null) throw new Error('a charge over the quota was taken');
  await accounts.refund(account, 1);
  await accounts.revoke('plans');
}

/** What every captured list must hold, so a capture that missed a path cannot pass for a clean one. */
function expectEveryPath(statements: Captured[]): void {
  const text = statements.map((s) => s.sql.replace(/\s+/g, ' ')).join('\n');
  for (const expected of [
    /INSERT INTO tokens/,
    /UPDATE tokens SET state = 'reserved'/,
    /UPDATE tokens SET state = 'redeemed'/,
    /UPDATE tokens SET state = 'issued'/,
    /INSERT INTO certificates/,
    /INSERT INTO log_entries/,
    /INSERT INTO (?:tree\.)?log_nodes/,
    /FROM (?:tree\.)?log_nodes/,
    /MAX\(leaf_index\)/,
    /UPDATE certificates SET revoked_at/,
    /UPDATE certificates SET evidence = NULL|SELECT count\(\*\) FROM certificate_evidence/,
    /UPDATE certificates SET report = NULL/,
    /INSERT INTO log_heads/,
    /INSERT INTO accounts/,
    /FROM accounts WHERE key_hash/,
    /UPDATE accounts SET quota_used = \(CASE/,
    /UPDATE accounts SET quota_used = (?:max|greatest)\(quota_used -/,
    /UPDATE accounts SET revoked_at/,
  ])
    expect(text).toMatch(expected);
}

/** A statement known to read the whole certificates table: the check must find it. */
const KNOWN_SCAN = "SELECT count(*) FROM certificates WHERE body LIKE '%never%'";

const SQLITE_SEED = `
  WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < @rows)
  INSERT INTO certificates (id, domain, body, created_at, expires_at, report)
  SELECT printf('dvc_seed_%08d', n), printf('d%d.fleet.test', n % 5000), printf('%.*c', 900, 'b'),
    @first + n * 60000, @first + n * 60000 + @lifetime, randomblob(300)
  FROM i;
  INSERT INTO tokens (hash, created_at, expires_at, state, domain, certificate_id, source)
  SELECT lower(hex(randomblob(32))), created_at, created_at + 90 * 86400000, 'redeemed', domain, id, 'checkout'
  FROM certificates;
  WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < 300)
  INSERT INTO tokens (hash, created_at, expires_at, source)
  SELECT lower(hex(randomblob(32))), @now - n * 3600000, @now - n * 3600000 + 30 * 86400000, 'checkout' FROM i;
  INSERT INTO log_entries (leaf_index, certificate_id)
  SELECT CAST(substr(id, 10) AS INTEGER), id FROM certificates;
  WITH RECURSIVE lv(level, count) AS (SELECT 0, @rows UNION ALL SELECT level + 1, count / 2 FROM lv WHERE count > 1),
    i(level, n) AS (SELECT level, 0 FROM lv UNION ALL
      SELECT i.level, n + 1 FROM i JOIN lv ON lv.level = i.level WHERE n + 1 < lv.count)
  INSERT INTO log_nodes (level, node_index, hash) SELECT level, n, randomblob(32) FROM i;
  WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < @accounts)
  INSERT INTO accounts (id, name, key_hash, domains_per_day, max_batch, concurrency, created_at, quota_day, quota_used)
  SELECT printf('acct_seed_%06d', n), printf('seed-%06d', n), lower(hex(randomblob(32))), 10000, 10000, 8,
    @first + n * 60000, '2026-11-28', n % 100
  FROM i;
  ANALYZE;`;

/**
 * The evidence of the seeded certificates still valid or expired in the last hour, in their weeks' files, and a
 * week's worth that expired more than a week before NOW, whose file the pruning deletes.
 */
function seedEvidence(ledger: SeededSqlite): void {
  const files = sqliteEvidence(ledger.file);
  try {
    const valid = ledger.db
      .prepare('SELECT id, expires_at FROM certificates WHERE expires_at > ? ORDER BY expires_at')
      .all(NOW - 3_600_000) as { id: string; expires_at: number }[];
    const expired = Array.from({ length: 1_000 }, (_, n) => ({ id: `dvc_gone_${n}`, expires_at: NOW - 10 * DAY + n }));
    files.storeAll(
      [...expired, ...valid].map((r) => ({ certificateId: r.id, expiresAt: r.expires_at, evidence: randomBytes(200) })),
    );
  } finally {
    files.close();
  }
}

describe('write paths read no whole table: SQLite', () => {
  let ledger: SeededSqlite;

  beforeAll(() => {
    ledger = seededSqliteLedger('dvs-plans-', SQLITE_SEED, {
      rows: ROWS,
      first: FIRST_ISSUE,
      lifetime: LIFETIME,
      now: NOW,
      accounts: ACCOUNTS,
    });
    seedEvidence(ledger);
  });

  afterAll(() => ledger.close());

  it('explains every statement of every write path as a lookup or a bounded range', async () => {
    const statements = await captureSqlite(() => writePaths(ledgerOver(ledger.store)));
    expectEveryPath(statements);
    const onLedger = statements.filter((s) => s.file === ledger.file);
    expect(sqliteFullScans(ledger.db, onLedger, SQLITE_TABLES)).toEqual([]);
    // The evidence files: the commit's row written by its key, and the one count over a whole file, of a week
    // that has expired, just before the file is deleted: bounded by a week's certificates, not by the ledger.
    const week = new Database(evidenceFileOf(ledger.file, weekOf(NOW + 90 * DAY)), { readonly: true });
    try {
      const onEvidence = statements.filter((s) => s.file !== ledger.file);
      expect(onEvidence.map((s) => s.sql)).toEqual([
        'INSERT OR REPLACE INTO certificate_evidence (certificate_id, evidence) VALUES (?, ?)',
        'SELECT count(*) FROM certificate_evidence',
      ]);
      expect(sqliteFullScans(week, onEvidence, ['certificate_evidence'])).toEqual([
        { sql: 'SELECT count(*) FROM certificate_evidence', plan: stringMatching(/USING COVERING INDEX/) },
      ]);
    } finally {
      week.close();
    }
  });

  it('finds a full scan where there is one', () => {
    expect(sqliteFullScans(ledger.db, [{ sql: KNOWN_SCAN, params: [] }], TABLES)).toHaveLength(1);
  });
});

const pgUp = await postgresReachable();
if (!pgUp) console.log('PostgreSQL not reachable: skipped (the write-path plans need a server on 127.0.0.1:5432)');

const POSTGRES_SEED = `
  INSERT INTO certificates (id, domain, body, created_at, expires_at, evidence, report)
  SELECT 'dvc_seed_' || lpad(n::text, 8, '0'), 'd' || (n % 5000) || '.fleet.test', repeat('b', 900),
    to_timestamp((${FIRST_ISSUE} + n * 60000) / 1000.0), to_timestamp((${FIRST_ISSUE} + n * 60000 + ${LIFETIME}) / 1000.0),
    CASE WHEN ${FIRST_ISSUE} + n * 60000 + ${LIFETIME} > ${NOW} - 3600000
      THEN sha512(int8send(n)) || sha512(int8send(-n)) END,
    sha512(int8send(n))
  FROM generate_series(0::bigint, ${ROWS} - 1) AS n;
  INSERT INTO tokens (hash, created_at, expires_at, state, domain, certificate_id, source)
  SELECT encode(sha256(convert_to(id, 'UTF8')), 'hex'), created_at, created_at + interval '90 days', 'redeemed',
    domain, id, 'checkout'
  FROM certificates;
  INSERT INTO tokens (hash, created_at, expires_at, source)
  SELECT encode(sha256(int8send(n)), 'hex'), to_timestamp((${NOW} - n * 3600000) / 1000.0),
    to_timestamp((${NOW} - n * 3600000) / 1000.0) + interval '30 days', 'checkout'
  FROM generate_series(0::bigint, 299) AS n;
  INSERT INTO log_entries (leaf_index, certificate_id)
  SELECT substr(id, 10)::bigint, id FROM certificates;
  INSERT INTO log_nodes (position, hash)
  SELECT (2 * n + 1) * (1::bigint << level) - 1, sha256(int8send(level * 100000000 + n))
  FROM generate_series(0, 20) AS level, generate_series(0::bigint, ${ROWS} - 1) AS n
  WHERE n < ${ROWS} >> level;
  INSERT INTO accounts (id, name, key_hash, domains_per_day, max_batch, concurrency, created_at, quota_day, quota_used)
  SELECT 'acct_seed_' || lpad(n::text, 6, '0'), 'seed-' || lpad(n::text, 6, '0'), encode(sha256(int8send(-n - 1)), 'hex'),
    10000, 10000, 8, to_timestamp((${FIRST_ISSUE} + n * 60000) / 1000.0), '2026-11-28', n % 100
  FROM generate_series(0::bigint, ${ACCOUNTS} - 1) AS n;
  ANALYZE tokens, certificates, log_entries, log_nodes, accounts`;

describe.skipIf(!pgUp)('write paths read no whole table: PostgreSQL', () => {
  let ledger: SeededPostgres;

  beforeAll(async () => {
    ledger = await seededPostgresLedger(async (client) => {
      await client.query(POSTGRES_SEED);
      // As autovacuum leaves an append-only table: its pages marked all-visible (migration 15).
      await client.query('VACUUM log_entries, log_nodes');
    });
  });

  afterAll(() => ledger?.close());

  it('explains every statement of every write path as a lookup or a bounded range', async () => {
    const statements = await capturePostgres(() => writePaths(ledgerOver(ledger.store)));
    expectEveryPath(statements);
    expect(await postgresFullScans(ledger.client, statements, TABLES)).toEqual([]);
  });

  it('finds a full scan where there is one', async () => {
    expect(await postgresFullScans(ledger.client, [{ sql: KNOWN_SCAN, params: [] }], TABLES)).toHaveLength(1);
  });

  it("reads a proof's nodes and a certificate's leaf index from the indexes alone", async () => {
    const key = await keyFromSeed(SIGNING_KID, new Uint8Array(32).fill(7), '2026-11-29T00:00:00Z');
    const log = new TransparencyLog(ledgerOver(ledger.store).log, keySource(key), () => new Date(NOW));
    const statements = await capturePostgres(async () => {
      await log.inclusion('dvc_seed_00012345', 19_000);
      await log.consistency(7_000, 19_000);
    });
    const reads = await postgresTableReads(ledger.client, statements, ['log_entries', 'log_nodes']);
    expect(new Set(reads)).toEqual(new Set(['log_entries: Index Only Scan', 'log_nodes: Index Only Scan']));
  });
});
