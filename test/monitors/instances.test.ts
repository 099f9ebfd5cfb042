// Monitors on two `dvs serve` processes sharing PostgreSQL: every due run happens once whichever instance takes it,
// and a run whose instance is killed with SIGKILL mid-scan is taken up again by the other: one certificate, one
// token spent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { RUN_ATTEMPTS } from '../../src/service/monitors.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';
import { freshSchema, postgresReachable, type TestSchema } from '../payments/postgres.ts';
import { serviceEnv, startChild, tempDir, type ChildService } from '../payments/service.ts';
import { startWorld, type World } from '../world/index.ts';
import { newAccount } from '../batches/helpers.ts';

const pgUp = await postgresReachable();

describe.skipIf(!pgUp)('monitors on two instances', () => {
  let world: World;

  beforeAll(async () => {
    // A round trip on every connection: a Full Validation takes long enough to be caught mid-scan.
    world = await startWorld({ rttMs: 30, sites: ['good', 'http-no-hsts'] });
  }, 60_000);
  afterAll(async () => world?.stop());

  const env = (schema: TestSchema, dir: string) =>
    serviceEnv(world, dir, {
      DVS_DATABASE_URL: schema.url,
      DVS_QUEUE_MAINTENANCE_S: '1',
      DVS_BATCH_CONCURRENCY: '2',
      DVS_MONITOR_MIN_INTERVAL: 'PT2S',
      // A short deadline and margin make a short claim (3 times the deadline and the margin): the killed
      // instance's run comes back after 7 s, not 17 s. The deadline counts host time, so a busy machine does not
      // make a run miss it.
      DVS_FULL_DEADLINE_MS: '2000',
      DVS_LEASE_MARGIN_S: '1',
      DVS_LOG_LEVEL: 'warn',
    });

  async function setUp(schema: TestSchema, tokenCount: number) {
    const key = await newAccount(schema.url, 'watcher');
    const ledger = await openLedger(loadConfig({ DVS_DATABASE_URL: schema.url, DVS_DATA_DIR: '/nonexistent' }));
    try {
      const tokens = (await ledger.issue({ count: tokenCount, source: 'test' })).map((t) => t.token);
      return { auth: { authorization: `Bearer ${key}` }, tokens };
    } finally {
      await ledger.close();
    }
  }

  const waitFor = async (what: () => Promise<boolean>, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    while (!(await what()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  };

  it('runs each due run once, whichever instance takes it', async () => {
    const schema = await freshSchema();
    const children: ChildService[] = [];
    try {
      const { auth, tokens } = await setUp(schema, 4);
      // One after the other: the first sets up the engine's schema, the second finds it.
      for (const prefix of ['dvs-mon-a-', 'dvs-mon-b-']) {
        const dir = tempDir(prefix);
        children.push(await startChild(env(schema, dir), dir));
      }
      // One monitor made on each instance, two runs each: four due runs, each a Full Validation's CPU.
      const domains = ['good.test', 'http-no-hsts.test'];
      for (const [i, domain] of domains.entries()) {
        const created = await children[i % 2]!.client.call(
          'POST',
          '/api/monitors',
          { domain, interval: 'PT3S', payment_tokens: tokens.slice(2 * i, 2 * i + 2) },
          auth,
        );
        expect(created.status).toBe(201);
      }
      const paused = async () =>
        (await schema.query<{ n: number }>("SELECT count(*)::int AS n FROM monitors WHERE paused = 'no_credits'"))[0]!
          .n === domains.length;
      await waitFor(paused, 100_000);
      expect(await paused()).toBe(true);
      // One row per due time. An attempt that could not judge is retried within its run; only a run that could
      // not judge in all its attempts (a machine too busy for the 2 s deadline) is counted without a
      // certificate, spends nothing, and lets one more run fall due.
      const runs = await schema.query<{ outcome: string; attempts: number; certificate_id: string | null }>(
        'SELECT outcome, attempts, certificate_id FROM monitor_runs',
      );
      const issued = runs.filter((r) => r.outcome === 'issued');
      expect(runs.filter((r) => r.outcome !== 'issued')).toEqual(
        runs
          .filter((r) => r.outcome !== 'issued')
          .map(() => ({ outcome: 'incomplete', attempts: RUN_ATTEMPTS, certificate_id: null })),
      );
      expect(issued).toHaveLength(4);
      // Each issued run has its own certificate, and no certificate was issued outside a recorded run.
      const certificates = await schema.query<{ id: string }>('SELECT id FROM certificates ORDER BY id');
      expect(certificates.map((c) => c.id)).toEqual(issued.map((r) => r.certificate_id).sort());
      const redeemed = await schema.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM tokens WHERE state = 'redeemed'",
      );
      expect(redeemed[0]!.n).toBe(4);
    } finally {
      for (const c of children) await c.stop();
      await schema.drop();
    }
  }, 150_000);

  it('takes up a run whose instance was killed with SIGKILL: one certificate, one token spent', async () => {
    const schema = await freshSchema();
    const children: ChildService[] = [];
    try {
      const { auth, tokens } = await setUp(schema, 1);
      const dirA = tempDir('dvs-mon-kill-a-');
      const a = await startChild(env(schema, dirA), dirA);
      children.push(a);
      const created = await a.client.call(
        'POST',
        '/api/monitors',
        { domain: 'good.test', interval: 'PT2S', payment_tokens: tokens },
        auth,
      );
      expect(created.status).toBe(201);
      // Killed once its run is claimed: the scan has begun, nothing is recorded yet.
      const claimed = async () =>
        (await schema.query('SELECT 1 FROM monitor_runs WHERE finished_at IS NULL AND attempts = 1')).length === 1;
      await waitFor(claimed, 30_000);
      expect(await claimed()).toBe(true);
      a.child.kill('SIGKILL');
      const dirB = tempDir('dvs-mon-kill-b-');
      children.push(await startChild(env(schema, dirB), dirB));

      const finished = async () =>
        (await schema.query('SELECT 1 FROM monitor_runs WHERE finished_at IS NOT NULL')).length === 1;
      await waitFor(finished, 90_000);
      const runs = await schema.query<{ outcome: string; attempts: number; certificate_id: string }>(
        'SELECT outcome, attempts, certificate_id FROM monitor_runs',
      );
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ outcome: 'issued' });
      expect(runs[0]!.attempts).toBeGreaterThanOrEqual(2);
      const certificates = await schema.query<{ id: string }>('SELECT id FROM certificates');
      expect(certificates.map((c) => c.id)).toEqual([runs[0]!.certificate_id]);
      const token = await schema.query<{ state: string; certificate_id: string }>(
        'SELECT state, certificate_id FROM tokens',
      );
      expect(token).toEqual([{ state: 'redeemed', certificate_id: runs[0]!.certificate_id }]);
      const monitor = await schema.query<{ paused: string; certificate_id: string }>(
        'SELECT paused, certificate_id FROM monitors',
      );
      expect(monitor).toEqual([{ paused: 'no_credits', certificate_id: runs[0]!.certificate_id }]);
    } finally {
      for (const c of children) await c.stop();
      await schema.drop();
    }
  }, 150_000);
});
