// Section 7's faults, each on PostgreSQL against the fixture internet: an instance killed mid-batch, an
// instance's database connections terminated mid-batch, Redis unreachable, and a cancel that leaves the tokens
// of items not started unspent. Every item ends with exactly one result.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';
import { freshSchema, postgresReachable, type TestSchema } from '../payments/postgres.ts';
import { serviceEnv, startChild, tempDir, type ChildService } from '../payments/service.ts';
import { startWorld, type World } from '../world/index.ts';
import { expectEvery } from '../helpers/every.ts';
import { ndjson, newAccount, startBatchService } from './helpers.ts';

const pgUp = await postgresReachable();

/**
 * The sites this file's world serves: distinct domains whose scans really run, of every kind. Sixteen items
 * prove one result per item as well as the thirty this file once used, and each item is a scan's CPU.
 */
const SITES = [
  'good',
  'http-no-hsts',
  'http-weak-headers',
  'http-bad-cookies',
  'http-no-redirect',
  'http-cors-null',
  'tls-legacy',
  'tls-v12-only',
  'tls-leaf-only',
  'tls-expired',
  'dns-no-caa',
  'dns-single-ns',
  'dns-weak-dmarc',
  'wk-no-llms',
  'wk-robots-blocks-ai',
  'wk-soft-404',
];

const domainsOf = (world: World) => world.sites.map((s) => s.domain);

interface Totals {
  total: number;
  results: number;
  distinct: number;
}

async function itemsOf(schema: TestSchema, batch: string) {
  return schema.query<{ domain: string; state: string; result_no: number | null; attempts: number }>(
    'SELECT domain, state, result_no, attempts FROM batch_items WHERE batch_id = $1',
    [batch],
  );
}

describe.skipIf(!pgUp)('batch faults', () => {
  let world: World;

  beforeAll(async () => {
    // A round trip on every connection and response: items take long enough to be caught mid-scan.
    world = await startWorld({ rttMs: 30, sites: SITES });
  }, 60_000);
  afterAll(async () => world?.stop());

  // Both instances start at the same moment on a fresh database, as a fleet's do after a deploy: each sets the
  // job engine up (pg-boss's schema, the queues) one after the other, or one of them failed to open it (the
  // cause of this test's timeouts on an idle machine, where the two starts coincide).
  it('finishes a batch when one of two instances is killed with SIGKILL mid-batch: one result per item', async () => {
    const schema = await freshSchema();
    const key = await newAccount(schema.url, 'fleet', { concurrency: 6 });
    const env = (dir: string) =>
      serviceEnv(world, dir, {
        DVS_DATABASE_URL: schema.url,
        DVS_QUEUE_MAINTENANCE_S: '1',
        DVS_BATCH_CONCURRENCY: '3',
        // Three items each from the start, not paced to the loaded test machine, so A soon runs items of its own.
        DVS_BATCH_PACE_DELAY_MS: '0',
        // The killed instance's items come back after their lease: 3 times the deadline and the margin, 7 s.
        DVS_QUICK_DEADLINE_MS: '2000',
        DVS_LEASE_MARGIN_S: '1',
        DVS_LOG_LEVEL: 'warn',
      });
    const dirs = [tempDir('dvs-fleet-a-'), tempDir('dvs-fleet-b-')];
    const [a, b] = (await Promise.all(dirs.map((d) => startChild(env(d), d)))) as [ChildService, ChildService];
    const auth = { authorization: `Bearer ${key}` };
    try {
      // Enough items that A is killed mid-batch (B alone takes several rounds of 3 over them, while A starts
      // within one 2 s poll), few enough that B finishes them soon after.
      const domains = domainsOf(world);
      const submitted = await a.client.call('POST', '/api/batches', { mode: 'quick', domains }, auth);
      expect(submitted.status).toBe(202);
      const { id, total } = JSON.parse(submitted.text) as { id: string; total: number };
      // Kill A once it runs items of its own: B works the queue from its start too, and runs at most 3 at once,
      // so more than 3 running items means some are A's.
      for (;;) {
        const items = await itemsOf(schema, id);
        if (items.filter((i) => i.state === 'running').length > 3) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      a.child.kill('SIGKILL');
      let status: { status: string; done: number; failed: number } = { status: '', done: 0, failed: 0 };
      const until = Date.now() + 120_000;
      while (status.status !== 'done' && Date.now() < until) {
        status = JSON.parse((await b.client.call('GET', `/api/batches/${id}`, undefined, auth)).text) as typeof status;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(status.status).toBe('done');
      const lines = ndjson((await b.client.call('GET', `/api/batches/${id}/results`, undefined, auth)).text);
      const totals: Totals = {
        total,
        results: lines.length,
        distinct: new Set(lines.map((l) => l.domain)).size,
      };
      expect(totals).toEqual({ total, results: total, distinct: total });
      expect(status.done + status.failed).toBe(total);
      const items = await itemsOf(schema, id);
      expectEvery(items, (i) => i.state === 'done' || i.state === 'failed', 'every item finished');
      // At least one item was taken again after its instance died.
      expect(items.some((i) => i.attempts > 1)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
      await schema.drop();
    }
  }, 180_000);

  it('reconnects when its database connections are terminated mid-batch, and finishes the batch', async () => {
    // A short deadline and margin make a short lease (7 s): an item whose result could not be written comes back
    // in seconds.
    const env = { ...world.env, DVS_BATCH_CONCURRENCY: '2', DVS_QUICK_DEADLINE_MS: '2000', DVS_LEASE_MARGIN_S: '1' };
    const svc = await startBatchService(env, { concurrency: 2 });
    try {
      const domains = domainsOf(world).slice(0, 8);
      const { id } = (await svc.api('POST', '/api/batches', { mode: 'quick', domains })).json() as { id: string };
      for (;;) {
        const items = await itemsOf(svc.schema, id);
        if (items.some((i) => i.result_no !== null)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const killed = await svc.schema.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1`,
        [`dvs-queue-${process.pid}`],
      );
      expect(killed[0]!.n).toBeGreaterThan(0);
      const status = await svc.finished(id, 120_000);
      expect(status).toMatchObject({ status: 'done', total: 8 });
      const lines = ndjson((await svc.api('GET', `/api/batches/${id}/results`)).text);
      expect(new Set(lines.map((l) => l.domain)).size).toBe(8);
      expect(lines).toHaveLength(8);
    } finally {
      await svc.stop();
    }
  }, 180_000);

  it('runs batches while Redis is unreachable (politeness then holds per instance)', async () => {
    const svc = await startBatchService({ ...world.env, DVS_REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const domains = domainsOf(world).slice(0, 4);
      const { id } = (await svc.api('POST', '/api/batches', { mode: 'quick', domains })).json() as { id: string };
      expect(await svc.finished(id, 120_000)).toMatchObject({ status: 'done', total: 4 });
      expect(ndjson((await svc.api('GET', `/api/batches/${id}/results`)).text)).toHaveLength(4);
    } finally {
      await svc.stop();
    }
  }, 180_000);

  it('cancelled mid-way: the items not started keep their tokens unspent, each token gives one certificate', async () => {
    const svc = await startBatchService({ ...world.env, DVS_BATCH_CONCURRENCY: '1' }, { concurrency: 1 });
    const ledger = await openLedger(loadConfig({ DVS_DATABASE_URL: svc.schema.url, DVS_DATA_DIR: svc.dataDir }));
    try {
      const domains = [
        'good.test',
        ...domainsOf(world)
          .filter((d) => d !== 'good.test')
          .slice(0, 3),
      ];
      const tokens = (await ledger.issue({ count: domains.length, source: 'test' })).map((t) => t.token);
      const items = domains.map((domain, i) => ({ domain, payment_token: tokens[i] }));
      // Tokens no validation here would take are refused at once, each on its own: a live token in test mode, junk.
      const bad = [
        { domain: 'a.good.test', payment_token: `dvs_live_${'a'.repeat(43)}` },
        { domain: 'b.good.test', payment_token: 'not-a-token' },
      ];
      const accepted = (await svc.api('POST', '/api/batches', { mode: 'full', items: [...items, ...bad] })).json() as {
        id: string;
        total: number;
        rejected: { index: number; code: string }[];
      };
      const { id } = accepted;
      expect(accepted.total).toBe(domains.length);
      expect(accepted.rejected.map((r) => [r.index, r.code])).toEqual([
        [domains.length, 'invalid_token'],
        [domains.length + 1, 'invalid_token'],
      ]);
      // The queue database keeps each token's digest (the ledger's key), never the token.
      const stored = await svc.schema.query<{ row: string; token_digest: string }>(
        'SELECT row_to_json(i)::text AS row, token_digest FROM batch_items i WHERE batch_id = $1 ORDER BY seq',
        [id],
      );
      const digests = tokens.map((t) => createHash('sha256').update(t).digest('hex'));
      expect(stored.map((r) => r.token_digest)).toEqual(digests);
      expect(stored.filter((r) => tokens.some((t) => r.row.includes(t)))).toEqual([]);
      for (;;) {
        const rows = await itemsOf(svc.schema, id);
        if (rows.some((r) => r.state === 'running')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const cancelled = await svc.api('DELETE', `/api/batches/${id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
      // The item running when the batch was cancelled finishes; nothing else starts.
      for (;;) {
        const rows = await itemsOf(svc.schema, id);
        if (!rows.some((r) => r.state === 'running')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const rows = await itemsOf(svc.schema, id);
      const lines = ndjson((await svc.api('GET', `/api/batches/${id}/results`)).text);
      const states = await Promise.all(tokens.map(async (t) => (await ledger.status(t))!.state));
      const cancelledItems = rows.filter((r) => r.state === 'cancelled').length;
      expect(cancelledItems).toBeGreaterThanOrEqual(2);
      expect(states.filter((s) => s === 'issued')).toHaveLength(
        cancelledItems + lines.filter((l) => !l.certificate_id).length,
      );
      expect(states.filter((s) => s === 'redeemed')).toHaveLength(lines.filter((l) => l.certificate_id).length);
      expect(states).not.toContain('reserved');
      const certificates = await svc.schema.query<{ n: number }>('SELECT count(*)::int AS n FROM certificates');
      expect(certificates[0]!.n).toBe(lines.filter((l) => l.certificate_id).length);
      const tokenColumn = await svc.schema.query('SELECT 1 FROM batch_items WHERE token_digest IS NOT NULL');
      expect(tokenColumn).toEqual([]);
    } finally {
      await ledger.close();
      await svc.stop();
    }
  }, 180_000);
});
