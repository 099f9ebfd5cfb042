// Issue 38 for the queue database's tables: no statement a batch, a webhook or a monitor runs reads a whole
// table. The tables are filled as a fleet in use fills them (many accounts, batches of every state, deliveries,
// monitors with their tokens and runs) and
// analysed; each write path then runs through its store as the service runs it, every statement is captured,
// and each is explained with the values it ran with (test/payments/query-plans.ts). PGlite runs the same SQL
// on the same planner as PostgreSQL, so the PostgreSQL plans stand for both.
//
// To cover more tables: add them to TABLES, their rows to SEED, and a path to WRITE_PATHS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchStore, type ClaimedItem } from '../../src/batches/batch-store.ts';
import { MonitorStore, type ClaimedRun } from '../../src/batches/monitor-store.ts';
import { openQueueDatabase, type QueueDatabase } from '../../src/batches/queue-database.ts';
import { WebhookStore } from '../../src/batches/webhook-store.ts';
import { capturePostgres, postgresFullScans, type Captured } from '../payments/query-plans.ts';
import { freshSchema, postgresReachable, type TestSchema } from '../payments/postgres.ts';
import pg from 'pg';

const TABLES = [
  'batches',
  'batch_items',
  'webhook_endpoints',
  'webhook_messages',
  'webhook_attempts',
  'monitors',
  'monitor_tokens',
  'monitor_runs',
];
const ACCOUNTS = 200;
const BATCHES = 2_000;
const ITEMS_PER_BATCH = 20;
const ENDPOINTS = 1_000;
const MESSAGES = 20_000;
const MONITORS = 10_000;
const RUNS_PER_MONITOR = 5;

/** 40,000 items: most finished with results, the newest batches still waiting, queued (parked) or running. */
const SEED = `
  INSERT INTO batches (id, account_id, mode, status, total, done, created_at)
  SELECT 'bat_seed_' || lpad(b::text, 6, '0'), 'acct_' || (b % ${ACCOUNTS}), 'quick',
    CASE WHEN b < ${BATCHES} - 100 THEN 'done' ELSE 'running' END, ${ITEMS_PER_BATCH},
    CASE WHEN b < ${BATCHES} - 100 THEN ${ITEMS_PER_BATCH} ELSE 0 END, now() - (${BATCHES} - b) * interval '1 minute'
  FROM generate_series(0, ${BATCHES} - 1) AS b;
  INSERT INTO batch_items (batch_id, seq, account_id, domain, state, result_no, result)
  SELECT 'bat_seed_' || lpad(b::text, 6, '0'), s, 'acct_' || (b % ${ACCOUNTS}), 'd' || b || '-' || s || '.fleet.test',
    CASE WHEN b < ${BATCHES} - 100 THEN 'done' WHEN s < 2 THEN 'running' WHEN s < 4 THEN 'queued' ELSE 'waiting' END,
    CASE WHEN b < ${BATCHES} - 100 THEN s END,
    CASE WHEN b < ${BATCHES} - 100 THEN jsonb_build_object('domain', 'd' || b || '.fleet.test', 'verdict', 'CERTIFIED') END
  FROM generate_series(0, ${BATCHES} - 1) AS b, generate_series(1, ${ITEMS_PER_BATCH}) AS s;
  INSERT INTO webhook_endpoints (id, account_id, url, events, secret)
  SELECT 'whe_seed_' || e, 'acct_' || (e % ${ACCOUNTS}), 'https://hooks.example/' || e,
    ARRAY['batch.completed', 'validation.completed'], 'whsec_seed'
  FROM generate_series(0, ${ENDPOINTS} - 1) AS e;
  INSERT INTO webhook_messages (id, endpoint_id, event, body, state, attempts)
  SELECT 'msg_seed_' || m, 'whe_seed_' || (m % ${ENDPOINTS}), 'batch.completed', '{}', 'delivered', 1
  FROM generate_series(0, ${MESSAGES} - 1) AS m;
  INSERT INTO webhook_attempts (message_id, attempt, endpoint_id, at, status)
  SELECT 'msg_seed_' || m, 1, 'whe_seed_' || (m % ${ENDPOINTS}), now() - m * interval '1 second', 200
  FROM generate_series(0, ${MESSAGES} - 1) AS m;
  INSERT INTO monitors (id, account_id, domain, interval, interval_ms, next_due_at, created_at)
  SELECT 'mon_' || lpad(to_hex(m), 24, '0'), 'acct_' || (m % ${ACCOUNTS}), 'm' || m || '.fleet.test', 'P1D', 86400000,
    now() + (m % 1440) * interval '1 minute', now() - (${MONITORS} - m) * interval '1 minute'
  FROM generate_series(0, ${MONITORS} - 1) AS m;
  INSERT INTO monitor_tokens (monitor_id, token_hash, expires_at, spent_at)
  SELECT 'mon_' || lpad(to_hex(m), 24, '0'), md5(m || '-' || t), now() + interval '90 days',
    CASE WHEN t < 2 THEN now() END
  FROM generate_series(0, ${MONITORS} - 1) AS m, generate_series(0, 3) AS t;
  INSERT INTO monitor_runs (monitor_id, due_at, attempts, finished_at, outcome, verdict, score)
  SELECT 'mon_' || lpad(to_hex(m), 24, '0'), now() - r * interval '1 day', 1, now() - r * interval '1 day',
    'issued', 'CERTIFIED', 100
  FROM generate_series(0, ${MONITORS} - 1) AS m, generate_series(1, ${RUNS_PER_MONITOR}) AS r;
  UPDATE batch_items SET parked_on = 'ip:10.0.0.' || (seq % 3), parked_at = now() - seq * interval '1 minute'
  WHERE state = 'queued';
  ANALYZE batches, batch_items, webhook_endpoints, webhook_messages, webhook_attempts, monitors, monitor_tokens,
    monitor_runs`;

interface Stores {
  db: QueueDatabase;
  batches: BatchStore;
  webhooks: WebhookStore;
  monitors: MonitorStore;
}

/** Each write path as the service runs it (src/service/batches.ts, webhooks.ts, monitors.ts), by name. */
const WRITE_PATHS: Record<string, (s: Stores) => Promise<void>> = {
  async 'batch submission, claim, result, turn passed on, parking, cancel'({ db, batches }) {
    const items = Array.from({ length: 5 }, (_, i) => ({ domain: `p${i}.plans.test`, tokenDigest: 'ab'.repeat(32) }));
    const refs = await db.transaction(async (tx) => {
      const inWork = await batches.inWork(tx, 'acct_plans');
      await batches.insert(tx, 'bat_plans', 'acct_plans', 'full', items);
      return batches.promote(tx, 'acct_plans', 2 - inWork);
    });
    const claimed = (await batches.claim(refs[0]!, 30)) as ClaimedItem;
    await batches.finish(
      claimed,
      { domain: claimed.domain },
      true,
      async (tx) => void (await batches.promote(tx, 'acct_plans', 1)),
      async () => undefined,
    );
    const second = (await batches.claim(refs[1]!, 30)) as ClaimedItem;
    await batches.unclaim(second);
    if ((await batches.claim(refs[0]!, 30)) !== 'finished') throw new Error('a finished item was claimed again');
    // Put off on a full place, taken back, parked again and woken by the place's release, then by the sweep.
    if (!(await batches.park(refs[1]!, 'ip:192.0.2.7', null))) throw new Error('a queued item was not parked');
    if (!(await batches.unpark(refs[1]!, 'ip:192.0.2.7'))) throw new Error('a parked item was not taken back');
    await batches.park(refs[1]!, 'ip:192.0.2.7', null);
    const woken = await db.transaction((tx) => batches.wake(tx, ['ip:192.0.2.7', 'site:plans.test']));
    if (woken.length !== 1) throw new Error('the parked item was not woken');
    await batches.park(refs[1]!, 'site:plans.test', null);
    await db.transaction((tx) => batches.wakeLost(tx, 0, 500));
    await batches.park(refs[1]!, 'site:plans.test', null);
    await batches.get('bat_plans', 'acct_plans');
    await batches.results('bat_plans', 0, 500);
    await batches.cancel('bat_plans', 'acct_plans', async (tx, parked) => {
      if (parked !== 1) throw new Error(`${parked} parked items cancelled, not 1`);
      await batches.promote(tx, 'acct_plans', parked);
    });
  },
  async 'webhook endpoint, event, delivery attempts, rotation, removal'({ db, webhooks }) {
    const endpoint = await webhooks.create('acct_plans', 'https://hooks.example/plans', ['batch.completed'], 'whsec_a');
    const message = await db.transaction(async (tx) => {
      const [subscribed] = await webhooks.subscribed(tx, 'acct_plans', 'batch.completed');
      return webhooks.addMessage(tx, subscribed!.id, 'batch.completed', '{}');
    });
    const pending = await webhooks.pending(message);
    if (!pending) throw new Error('the message is not pending');
    await db.transaction((tx) =>
      webhooks.recordAttempt(tx, pending.message, { status: 410, error: null, state: 'failed', disable: true }),
    );
    await webhooks.abandon(message);
    await webhooks.attempts(endpoint.id, 50);
    await webhooks.rotate(endpoint.id, 'acct_plans', 'whsec_b', 3600);
    await webhooks.get(endpoint.id, 'acct_plans');
    await webhooks.list('acct_plans');
    await webhooks.remove(endpoint.id, 'acct_plans');
  },
  async 'monitor creation within its limit, list pages, run claimed and recorded, change, removal'({ db, monitors }) {
    const id = `mon_${'ab'.repeat(12)}`;
    const dueAt = new Date(Date.now() - 1000);
    const hours = (h: number) => new Date(Date.now() + h * 3_600_000);
    const [spent, other, added] = ['a1', 'b2', 'c3'].map((h) => ({ hash: h.repeat(32), expiresAt: hours(2000) }));
    await db.transaction(async (tx) => {
      await monitors.countLocked(tx, 'acct_7');
      await monitors.insert(
        tx,
        { id, accountId: 'acct_7', domain: 'plans.test', interval: 'PT1H', intervalMs: 3_600_000, nextDueAt: dueAt },
        [spent!, other!],
      );
    });
    const [first] = await monitors.list('acct_7', null, 26);
    await monitors.list('acct_7', first!.position, 26);
    const job = { id, generation: 0, dueAt };
    await monitors.unclaim((await monitors.claim(job, 30)) as ClaimedRun);
    const run = (await monitors.claim(job, 30)) as ClaimedRun;
    if ((await monitors.claim(job, 30)) === 'stale') throw new Error('a held run was taken for stale');
    await db.transaction((tx) => monitors.dropToken(tx, run, other!.hash));
    const record = { outcome: 'issued', verdict: 'CERTIFIED', score: 100, certificateId: 'dvc_plans' } as const;
    await monitors.finish(run, { ...record, nextDueAt: hours(1) }, async () => undefined);
    await db.transaction(async (tx) => {
      await monitors.lock(tx, id, 'acct_7');
      await monitors.addTokens(tx, id, [added!]);
      await monitors.reschedule(tx, id, { paused: 'requested', nextDueAt: null });
    });
    await monitors.remove(id, 'acct_7');
  },
};

/** What the captured list must hold, so a capture that missed a path cannot pass for a clean one. */
const EXPECTED = [
  /INSERT INTO batches/,
  /INSERT INTO batch_items/,
  /UPDATE batch_items i SET state = 'queued'/,
  /UPDATE batch_items i SET state = 'running'/,
  /UPDATE batches SET done = done/,
  /UPDATE batch_items SET state = \$4/,
  /UPDATE batch_items SET state = 'queued', claim_id = NULL/,
  /UPDATE batch_items i SET state = 'cancelled'/,
  /UPDATE batch_items SET parked_on = \$3/,
  /UPDATE batch_items SET parked_on = NULL, parked_at = NULL WHERE/,
  /WHERE parked_on = k\.key/,
  /WHERE parked_on IS NOT NULL AND parked_at </,
  /FROM batch_items WHERE batch_id = \$1 AND result_no > \$2/,
  /INSERT INTO webhook_endpoints/,
  /INSERT INTO webhook_messages/,
  /INSERT INTO webhook_attempts/,
  /UPDATE webhook_messages SET attempts/,
  /UPDATE webhook_endpoints SET disabled_at/,
  /UPDATE webhook_endpoints SET previous_secret/,
  /DELETE FROM webhook_endpoints/,
  /SELECT count\(\*\)::int AS n FROM monitors WHERE account_id/,
  /INSERT INTO monitors/,
  /INSERT INTO monitor_tokens/,
  /\(m\.created_at, m\.id\) > /,
  /UPDATE monitors SET claim_id = \$3/,
  /UPDATE monitor_runs SET attempts/,
  /UPDATE monitors SET claim_id = NULL, lease_until = NULL WHERE/,
  /UPDATE monitor_tokens SET spent_at = now\(\) WHERE/,
  /UPDATE monitor_runs SET finished_at/,
  /UPDATE monitor_tokens SET spent_at = now\(\), certificate_id/,
  /UPDATE monitors SET generation = generation \+ 1/,
  /DELETE FROM monitors/,
];

/**
 * What a delete that cascades runs on each table referring to the deleted row's table: the lookup of the
 * referring rows by their reference (PostgreSQL's own trigger, which no captured statement shows).
 */
async function cascadeLookups(client: pg.Client): Promise<Captured[]> {
  const { rows } = await client.query<{ child: string; columns: string[] }>(
    `SELECT c.conrelid::regclass::text AS child,
       array_agg(a.attname::text ORDER BY k.n) AS columns
     FROM pg_constraint c
     CROSS JOIN unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
     WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
     GROUP BY c.oid, c.conrelid`,
  );
  return rows.map(({ child, columns }) => ({
    sql: `SELECT 1 FROM ${child} WHERE ${columns.map((col, i) => `${col} = $${i + 1}`).join(' AND ')}`,
    params: columns.map(() => 'x'),
  }));
}

/** A statement known to read all of batch_items: the check must find it. */
const KNOWN_SCAN = "SELECT count(*) FROM batch_items WHERE domain LIKE '%never%'";

const pgUp = await postgresReachable();

describe.skipIf(!pgUp)('batch and webhook write paths read no whole table: PostgreSQL', () => {
  let schema: TestSchema;
  let stores: Stores;
  let client: pg.Client;

  beforeAll(async () => {
    schema = await freshSchema();
    const db = await openQueueDatabase({ databaseUrl: schema.url, dataDir: '/nonexistent' }, () => undefined);
    stores = { db, batches: new BatchStore(db), webhooks: new WebhookStore(db), monitors: new MonitorStore(db) };
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    await client.query(SEED);
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await stores?.db.close();
    await schema?.drop();
  });

  it('explains every statement of every write path as a lookup or a bounded range', async () => {
    const statements: Captured[] = await capturePostgres(async () => {
      for (const run of Object.values(WRITE_PATHS)) await run(stores);
    });
    const text = statements.map((s) => s.sql.replace(/\s+/g, ' ')).join('\n');
    for (const expected of EXPECTED) expect(text).toMatch(expected);
    expect(await postgresFullScans(client, statements, TABLES)).toEqual([]);
  });

  it('finds the rows a cascading delete removes by an index', async () => {
    const lookups = await cascadeLookups(client);
    expect(lookups.map((l) => l.sql.split(' WHERE ')[0])).toEqual(
      expect.arrayContaining([
        'SELECT 1 FROM batch_items',
        'SELECT 1 FROM webhook_attempts',
        'SELECT 1 FROM webhook_messages',
        'SELECT 1 FROM monitor_tokens',
        'SELECT 1 FROM monitor_runs',
      ]),
    );
    expect(await postgresFullScans(client, lookups, TABLES)).toEqual([]);
  });

  it('finds a full scan where there is one', async () => {
    expect(await postgresFullScans(client, [{ sql: KNOWN_SCAN, params: [] }], TABLES)).toHaveLength(1);
  });
});
