// The history's reads are index-served on both backends: over a ledger of 20,000 certificates, among them three
// years of daily runs of one domain, a page (first or by cursor) is a range of the (domain, created_at, id)
// index (read in order on SQLite), never a whole-table read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/payments/ledger.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import { DomainHistory } from '../../src/service/domain-history.ts';
import { postgresReachable } from './postgres.ts';
import {
  capturePostgres,
  captureSqlite,
  postgresFullScans,
  sqliteFullScans,
  seededSqliteLedger,
  type Captured,
  type SeededSqlite,
  seededPostgresLedger,
  type SeededPostgres,
} from './query-plans.ts';

const ROWS = 20_000;
const DAILY = 1_100;
const NOW = Date.parse('2026-11-29T00:00:00Z');
const DAY = 86_400_000;
const BODY = JSON.stringify({
  payload: {
    verdict: 'CERTIFIED',
    score: 100,
    ruleset: { version: '1.0.0' },
    observed_at: '2026-11-28T00:00:00Z',
    issued_at: '2026-11-28T00:00:00Z',
    expires_at: '2027-02-26T00:00:00Z',
    results: [],
  },
  jws: 'sig',
});

const ledgerOver = (store: LedgerStore) =>
  new Ledger(store, { mode: 'test', tokenTtlSeconds: 3600, reservationLeaseSeconds: 60, now: () => NOW });

/** Two pages of the long history, the first and one by cursor, as the API and the report page read them. */
async function historyReads(ledger: Ledger): Promise<void> {
  const history = new DomainHistory(ledger, () => NOW);
  const first = await history.page('daily.test', { limit: 100 });
  if (first.entries.length !== 100 || !first.next) throw new Error('the seed did not give a long history');
  await history.page('daily.test', { limit: 100, before: first.next });
}

function expectHistoryRead(statements: Captured[]): void {
  expect(statements.filter((s) => /\(created_at, id\) </.test(s.sql))).toHaveLength(1);
  expect(statements.filter((s) => /WHERE domain = \S+ ORDER BY/.test(s.sql.replace(/\s+/g, ' ')))).toHaveLength(1);
}

const SQLITE_SEED = `
  WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < @rows)
  INSERT INTO certificates (id, domain, body, created_at, expires_at)
  SELECT printf('dvc_%032x', n), CASE WHEN n < @daily THEN 'daily.test' ELSE printf('d%d.fleet.test', n % 5000) END,
    @body, @now - (@rows - n) * 60000 - CASE WHEN n < @daily THEN (@daily - n) * @day ELSE 0 END,
    @now + 90 * @day
  FROM i;
  ANALYZE`;

describe('history reads are index-served: SQLite', () => {
  let ledger: SeededSqlite;

  beforeAll(() => {
    ledger = seededSqliteLedger('dvs-history-plans-', SQLITE_SEED, {
      rows: ROWS,
      daily: DAILY,
      now: NOW,
      day: DAY,
      body: BODY,
    });
  });

  afterAll(() => ledger.close());

  it('reads each page as an ordered range of the history index, without a sort', async () => {
    const statements = await captureSqlite(() => historyReads(ledgerOver(ledger.store)));
    expectHistoryRead(statements);
    expect(sqliteFullScans(ledger.db, statements, ['certificates'])).toEqual([]);
    for (const s of statements) {
      const plan = (ledger.db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
      expect(plan, s.sql).not.toMatch(/TEMP B-TREE/);
      if (/created_at DESC, id DESC/.test(s.sql)) expect(plan, s.sql).toMatch(/certificates_domain_history/);
    }
  });
});

const pgUp = await postgresReachable();
if (!pgUp) console.log('PostgreSQL not reachable: skipped (the history plans need a server on 127.0.0.1:5432)');

describe.skipIf(!pgUp)('history reads are index-served: PostgreSQL', () => {
  let ledger: SeededPostgres;

  beforeAll(async () => {
    ledger = await seededPostgresLedger(async (client) => {
      await client.query(
        `INSERT INTO certificates (id, domain, body, created_at, expires_at)
         SELECT 'dvc_' || lpad(to_hex(n), 32, '0'),
           CASE WHEN n < ${DAILY} THEN 'daily.test' ELSE 'd' || (n % 5000) || '.fleet.test' END, $1,
           to_timestamp((${NOW} - (${ROWS} - n) * 60000 - CASE WHEN n < ${DAILY} THEN (${DAILY} - n) * ${DAY} ELSE 0 END) / 1000.0),
           to_timestamp((${NOW} + 90::bigint * ${DAY}) / 1000.0)
         FROM generate_series(0::bigint, ${ROWS} - 1) AS n`,
        [BODY],
      );
      await client.query('ANALYZE');
    });
  });

  afterAll(() => ledger?.close());

  // PostgreSQL may sort the rows of one domain's range when it estimates them few (a bitmap scan); what matters
  // is that the range comes from the history index, never from the table.
  it('reads each page as a range of the history index', async () => {
    const statements = await capturePostgres(() => historyReads(ledgerOver(ledger.store)));
    expectHistoryRead(statements);
    expect(await postgresFullScans(ledger.client, statements, ['certificates'])).toEqual([]);
    for (const s of statements.filter((x) => /created_at DESC, id DESC/.test(x.sql))) {
      const { rows } = await ledger.client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params);
      const plan = rows.map((r) => r['QUERY PLAN']).join(' | ');
      expect(plan, s.sql).toMatch(/certificates_domain_history/);
      expect(plan, s.sql).not.toMatch(/Seq Scan/);
    }
  });
});
