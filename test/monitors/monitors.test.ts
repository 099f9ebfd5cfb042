// Monitors on PostgreSQL against a fixture internet of their own (flip.test changes while it runs): the API and
// its refusals, tokens held in the ledger and given back, and runs that renew, regress and recover, announced to
// hooks.test and verified with the Standard Webhooks library.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { run as monitorsCli } from '../../src/cli/monitors.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';
import { EVENT_TYPES } from '../../src/service/webhooks.ts';
import type { Ledger } from '../../src/payments/ledger.ts';
import { postgresReachable } from '../payments/postgres.ts';
import { startWorld, type World } from '../world/index.ts';
import { fetchSite } from '../world/https-client.ts';
import type { ReceivedRequest } from '../world/receiver.ts';
import { newAccount, startBatchService, type BatchService } from '../batches/helpers.ts';

const pgUp = await postgresReachable();

interface MonitorBody {
  id: string;
  domain: string;
  interval: string;
  paused: boolean;
  paused_reason: string | null;
  credits: number;
  next_run_at: string | null;
  certificate_id: string | null;
  verdict: string | null;
  last_run: { outcome: string | null; certificate_id: string | null; verdict: string | null } | null;
}

describe.skipIf(!pgUp)('monitors', () => {
  let world: World;
  let svc: BatchService;
  let ledger: Ledger;

  beforeAll(async () => {
    // The sites monitored, the hook receiver, and the site flip.test is switched to.
    world = await startWorld({ sites: ['good', 'flip', 'hooks', 'http-no-hsts'] });
    svc = await startBatchService({
      ...world.env,
      DVS_MONITOR_MIN_INTERVAL: 'PT2S',
      DVS_WEBHOOK_RETRY_DIVISOR: '1000',
    });
    ledger = await openLedger(loadConfig({ DVS_DATABASE_URL: svc.schema.url, DVS_DATA_DIR: svc.dataDir }));
  }, 60_000);
  afterAll(async () => {
    await ledger?.close();
    await svc?.stop();
    await world?.stop();
  });

  const tokens = async (n: number) => (await ledger.issue({ count: n, source: 'test' })).map((t) => t.token);
  const monitor = async (id: string) => (await svc.api('GET', `/api/monitors/${id}`)).json() as MonitorBody;
  const until = async <T>(what: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 40_000): Promise<T> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await what();
      if (ok(v) || Date.now() > end) return v;
      await new Promise((r) => setTimeout(r, 150));
    }
  };

  it('holds the tokens at creation, refuses what it cannot use, and gives unspent tokens back on delete', async () => {
    const [a, b] = await tokens(2);
    const tooShort = await svc.api('POST', '/api/monitors', {
      domain: 'good.test',
      interval: 'PT1S',
      payment_tokens: [a],
    });
    expect(tooShort.status).toBe(400);
    expect((tooShort.json() as { error: string }).error).toContain('at least PT2S');
    const months = await svc.api('POST', '/api/monitors', {
      domain: 'good.test',
      interval: 'P1M',
      payment_tokens: [a],
    });
    expect(months.status).toBe(400);
    const unknown = await svc.api('POST', '/api/monitors', {
      domain: 'good.test',
      interval: 'P1D',
      payment_tokens: [a, `dvs_test_${'x'.repeat(43)}`],
    });
    expect(unknown.status).toBe(402);
    const refusal = unknown.json() as { code: string; error: string };
    expect(refusal.code).toBe('payment_required');
    expect(refusal.error).toMatch(/^payment_tokens\[1\]: /);
    // Nothing was held by the refused request: the first token is still free.
    expect((await ledger.status(a!))!.state).toBe('issued');

    const created = await svc.api('POST', '/api/monitors', {
      domain: 'GOOD.test',
      interval: 'P1D',
      payment_tokens: [a, b],
    });
    expect(created.status).toBe(201);
    const m = created.json() as MonitorBody;
    expect(created.headers.location).toBe(`/api/monitors/${m.id}`);
    expect(m).toMatchObject({ domain: 'good.test', interval: 'P1D', paused: false, credits: 2, last_run: null });
    const due = Date.parse(m.next_run_at!) - Date.now();
    expect(due).toBeGreaterThan(0);
    expect(due).toBeLessThanOrEqual(86_400_000);
    expect((await ledger.status(a!))!.state).toBe('reserved');
    const again = await svc.api('POST', `/api/monitors/${m.id}/tokens`, { payment_tokens: [a] });
    expect(again.status).toBe(200);
    expect((again.json() as MonitorBody).credits).toBe(2);
    // A held token pays for nothing else.
    expect((await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: b })).status).toBe(402);

    const paused = await svc.api('PATCH', `/api/monitors/${m.id}`, { paused: true });
    expect(paused.json()).toMatchObject({ paused: true, paused_reason: 'requested', next_run_at: null });
    const resumed = await svc.api('PATCH', `/api/monitors/${m.id}`, { paused: false, interval: 'PT12H' });
    const r = resumed.json() as MonitorBody;
    expect(r).toMatchObject({ paused: false, interval: 'PT12H' });
    expect(Date.parse(r.next_run_at!) - Date.now()).toBeLessThanOrEqual(12 * 3_600_000);
    expect((await svc.api('PATCH', `/api/monitors/${m.id}`, {})).status).toBe(400);

    const other = await newAccount(svc.schema.url, 'other');
    const theirs = await svc.call('GET', `/api/monitors/${m.id}`, { headers: { authorization: `Bearer ${other}` } });
    expect(theirs.status).toBe(404);
    expect((await svc.call('GET', '/api/monitors')).status).toBe(401);
    expect(
      ((await svc.api('GET', '/api/monitors')).json() as { monitors: MonitorBody[] }).monitors.map((x) => x.id),
    ).toContain(m.id);

    expect((await svc.api('DELETE', `/api/monitors/${m.id}`)).status).toBe(204);
    expect((await svc.api('GET', `/api/monitors/${m.id}`)).status).toBe(404);
    expect((await ledger.status(a!))!.state).toBe('issued');
    expect((await ledger.status(b!))!.state).toBe('issued');
  }, 60_000);

  it('pages thousands of monitors exactly while more are made, and refuses a cursor it did not give', async () => {
    const key = await newAccount(svc.schema.url, 'pager', { maxMonitors: 10_000 });
    const auth = { authorization: `Bearer ${key}` };
    const get = (query: string) => svc.call('GET', `/api/monitors${query}`, { headers: auth });
    const [{ id: account }] = (await svc.schema.query<{ id: string }>(
      "SELECT id FROM accounts WHERE name = 'pager'",
    )) as [{ id: string }];
    // Paused rows without jobs: listed, never run. The first 2,000 share one creation time, so their order is
    // the id's alone; the next 1,000 are a millisecond apart.
    await svc.schema.query(
      `INSERT INTO monitors (id, account_id, domain, interval, interval_ms, paused, created_at)
       SELECT 'mon_' || lpad(to_hex(i), 24, '0'), $1, 'm' || i || '.good.test', 'P1D', 86400000, 'requested',
         timestamptz '2026-01-01T00:00:00Z' + greatest(i - 1999, 0) * interval '1 ms'
       FROM generate_series(0, 2999) AS i`,
      [account],
    );
    const before = new Set(
      (await svc.schema.query<{ id: string }>('SELECT id FROM monitors WHERE account_id = $1', [account])).map(
        (r) => r.id,
      ),
    );
    expect(before.size).toBe(3000);

    const listed: string[] = [];
    let pages = 0;
    let next: string | null = null;
    const made: string[] = [];
    do {
      const page = await get(`?limit=241${next ? `&after=${next}` : ''}`);
      expect(page.status).toBe(200);
      const body = page.json() as { monitors: MonitorBody[]; next: string | null };
      expect(body.monitors.length).toBeLessThanOrEqual(241);
      listed.push(...body.monitors.map((m) => m.id));
      next = body.next;
      pages += 1;
      // Made while the list is read: behind the cursor (a creation that committed late), among the rows still
      // to come, and after all of them, through the API. None may shift a page.
      await svc.schema.query(
        `INSERT INTO monitors (id, account_id, domain, interval, interval_ms, paused, created_at)
         SELECT 'mon_' || lpad(to_hex(100000 + $2 * 10 + k), 24, '0'), $1, 'late.good.test', 'P1D', 86400000,
           'requested', timestamptz '2026-01-01T00:00:00Z' + (k * 300 - 1) * interval '1 ms'
         FROM generate_series(0, 3) AS k`,
        [account, pages],
      );
      if (made.length < 3) {
        const created = await svc.call('POST', '/api/monitors', {
          body: JSON.stringify({ domain: 'good.test', interval: 'P1D', payment_tokens: await tokens(1) }),
          headers: { ...auth, 'content-type': 'application/json' },
        });
        expect(created.status).toBe(201);
        made.push((created.json() as MonitorBody).id);
      }
    } while (next);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(3000 / 241));
    expect(new Set(listed).size).toBe(listed.length);
    expect([...before].filter((id) => !listed.includes(id))).toEqual([]);
    // The order is the index's: creation time, then id.
    const ordered = await svc.schema.query<{ id: string }>(
      'SELECT id FROM monitors WHERE id = ANY($1) ORDER BY created_at, id',
      [listed],
    );
    expect(ordered.map((r) => r.id)).toEqual(listed);
    // The API's monitors are the newest: the list ends with them.
    expect(listed.slice(-3)).toEqual(made);

    for (const query of [
      '?after=1',
      '?after=abc.mon_00',
      `?after=${'9'.repeat(18)}.mon_${'0'.repeat(24)}`,
      '?limit=0',
      '?limit=1001',
      '?limit=2&limit=3',
    ]) {
      const bad = await get(query);
      expect(bad.status, query).toBe(400);
      const body = bad.json() as { error: string; docs: string };
      expect(body.error, query).toMatch(/^(after|limit) must be/);
      expect(body.docs).toMatch(/\/docs\/api#monitors$/);
    }
    const first = (await get('')).json() as { monitors: MonitorBody[]; next: string };
    expect(first.monitors).toHaveLength(100);
    expect(first.next).toMatch(/^\d+\.mon_[0-9a-f]{24}$/);
  }, 60_000);

  it('holds an account to its monitor limit, however many are made at once', async () => {
    const key = await newAccount(svc.schema.url, 'limited', { maxMonitors: 2 });
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const create = async (token: string) =>
      svc.call('POST', '/api/monitors', {
        body: JSON.stringify({ domain: 'good.test', interval: 'P1D', payment_tokens: [token] }),
        headers: auth,
      });
    expect((await svc.call('GET', '/api/account', { headers: auth })).json()).toMatchObject({ max_monitors: 2 });
    const three = await tokens(3);
    const answers = await Promise.all(three.map(create));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 403]);
    const refused = answers.find((a) => a.status === 403)!;
    const body = refused.json() as { error: string; code: string; docs: string };
    expect(body).toMatchObject({ code: 'monitor_limit', docs: 'https://dvs.example.net/docs/api#monitors' });
    expect(body.error).toContain('at most 2 monitors');
    expect(refused.headers['retry-after']).toBeUndefined();
    // The refused monitor's token is not held: it pays for anything, as before.
    const states = await Promise.all(three.map(async (t) => (await ledger.status(t))!.state));
    expect([...states].sort()).toEqual(['issued', 'reserved', 'reserved']);

    // Paused monitors count; deleting one makes room.
    const mine = (await svc.call('GET', '/api/monitors', { headers: auth })).json() as { monitors: MonitorBody[] };
    await svc.call('PATCH', `/api/monitors/${mine.monitors[0]!.id}`, {
      body: JSON.stringify({ paused: true }),
      headers: auth,
    });
    const [extra] = await tokens(1);
    expect((await create(extra!)).status).toBe(403);
    expect((await ledger.status(extra!))!.state).toBe('issued');
    expect((await svc.call('DELETE', `/api/monitors/${mine.monitors[0]!.id}`, { headers: auth })).status).toBe(204);
    expect((await create(extra!)).status).toBe(201);
  }, 60_000);

  it('renews each run, revokes for regression, recovers, and pauses when the tokens run out', async () => {
    const received = async (path: string): Promise<ReceivedRequest[]> => {
      const hooks = world.sites.find((s) => s.name === 'hooks')!;
      const answer = await fetchSite({
        address: hooks.address,
        port: world.httpsPort,
        host: 'hooks.test',
        path: '/_received',
        ca: world.caPem,
      });
      return (JSON.parse(answer.body.toString('utf8')) as ReceivedRequest[]).filter((r) => r.path === path);
    };
    const endpoint = (
      await svc.api('POST', '/api/webhooks', {
        url: world.url('hooks', '/monitor'),
        // Every event but the completions, which the other events of each run stand for here.
        events: EVENT_TYPES.filter((t) => !t.endsWith('.completed')),
      })
    ).json() as { secret: string };
    const events = async () =>
      (await received('/monitor')).map(
        (r) =>
          new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: Record<string, unknown>;
          },
      );
    const flip = (as: string | null) =>
      fetch(`${world.env.DVS_WORLD_CONTROL}/sites/flip${as ? `/as/${as}` : ''}`, { method: as ? 'POST' : 'DELETE' });

    const created = await svc.api('POST', '/api/monitors', {
      domain: 'flip.test',
      interval: 'PT3S',
      payment_tokens: await tokens(3),
    });
    const { id } = created.json() as MonitorBody;
    const first = await until(
      () => monitor(id),
      (m) => m.certificate_id !== null,
    );
    expect(first).toMatchObject({ verdict: 'CERTIFIED', credits: 2 });

    expect((await flip('http-no-hsts')).status).toBe(200);
    const second = await until(
      () => monitor(id),
      (m) => m.verdict === 'NOT_CONFORMANT',
    );
    expect(second.credits).toBe(1);
    const status = (await svc.call('GET', `/api/certificates/${first.certificate_id}/status`)).json();
    expect(status).toMatchObject({
      status: 'revoked',
      reason: 'regression',
      report: `https://dvs.example.net/certificates/${second.certificate_id}`,
    });

    const page = await svc.call('GET', `/certificates/${first.certificate_id}`, { headers: { accept: 'text/html' } });
    expect(page.text).toContain('<strong>Revoked</strong>');
    expect(page.text).toContain(
      `: regression (<a href="https://dvs.example.net/certificates/${second.certificate_id}">`,
    );
    expect((await svc.call('GET', '/badge/flip.test.svg')).text).toContain('agent readiness: not conformant');

    expect((await flip(null)).ok).toBe(true);
    const third = await until(
      () => monitor(id),
      (m) => m.paused,
    );
    expect(third).toMatchObject({ verdict: 'CERTIFIED', credits: 0, paused_reason: 'no_credits', next_run_at: null });
    expect(third.certificate_id).not.toBe(second.certificate_id);
    const secondStatus = (await svc.call('GET', `/api/certificates/${second.certificate_id}/status`)).json();
    expect(secondStatus).toMatchObject({ status: 'superseded', superseded_by: third.certificate_id });

    // Deliveries run beside the runs: wait for the last run's events to arrive.
    const expected = [
      ...['certificate.issued', 'certificate.issued', 'certificate.issued'],
      ...['certificate.revoked', 'certificate.superseded', 'certificate.superseded'],
      ...['monitor.credits_low', 'monitor.paused', 'validation.recovered', 'validation.regressed'],
    ];
    const got = await until(events, (e) => e.length >= expected.length, 20_000);
    const types = got.map((e) => e.type);
    expect([...types].sort()).toEqual(expected);
    expect(types.filter((t) => t === 'certificate.issued')).toHaveLength(3);
    expect(types.filter((t) => t === 'certificate.superseded')).toHaveLength(2);
    const regressed = got.find((e) => e.type === 'validation.regressed')!;
    expect(regressed.data).toMatchObject({
      monitor_id: id,
      domain: 'flip.test',
      verdict: 'NOT_CONFORMANT',
      previous_verdict: 'CERTIFIED',
      previous_certificate_id: first.certificate_id,
      certificate_id: second.certificate_id,
    });
    expect(got.find((e) => e.type === 'certificate.revoked')!.data).toMatchObject({
      certificate_id: first.certificate_id,
      reason: 'regression',
    });
    expect(got.find((e) => e.type === 'validation.recovered')!.data).toMatchObject({
      certificate_id: third.certificate_id,
      previous_verdict: 'NOT_CONFORMANT',
    });
    expect(types.filter((t) => t === 'monitor.credits_low')).toHaveLength(1);
    // Three runs, three certificates, three tokens spent: one each.
    const runs = await svc.schema.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM monitor_runs WHERE monitor_id = $1 AND outcome = 'issued'",
      [id],
    );
    expect(runs[0]!.n).toBe(3);
    const certificates = await svc.schema.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM certificates WHERE domain = 'flip.test'",
    );
    expect(certificates[0]!.n).toBe(3);
  }, 90_000);

  it('dvs monitors mirrors the API', async () => {
    const saved = process.env.DVS_API_KEY;
    process.env.DVS_API_KEY = svc.key;
    const dvs = async (...args: string[]) => {
      let stdout = '';
      let stderr = '';
      const ca = path.join(svc.dataDir, 'tls', 'localhost-cert.pem');
      const code = await monitorsCli([...args, '--base', svc.url, '--ca', ca], {
        config: svc.config,
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t) },
      });
      return {
        code,
        out: stdout ? (JSON.parse(stdout) as MonitorBody & { monitors: MonitorBody[]; next: string | null }) : null,
        stderr,
      };
    };
    try {
      const file = path.join(svc.dataDir, 'tokens.txt');
      writeFileSync(file, `# prepaid\n${(await tokens(2)).join('\n')}\n`);
      const created = await dvs('create', 'good.test', '--interval', 'P1D', '--tokens', file);
      expect(created.code).toBe(0);
      const id = created.out!.id;
      expect(created.out).toMatchObject({ domain: 'good.test', credits: 2 });
      const one = (await dvs('list', '--limit', '1')).out!;
      expect(one.monitors).toHaveLength(1);
      const rest = (await dvs('list', '--after', one.next!)).out!;
      expect([...one.monitors, ...rest.monitors].map((m) => m.id)).toContain(id);
      // --all follows next page by page: one monitor a page here.
      const all = (await dvs('list', '--all', '--limit', '1')).out!;
      expect(all.next).toBeNull();
      expect(all.monitors.map((m) => m.id)).toEqual([...one.monitors, ...rest.monitors].map((m) => m.id));
      expect((await dvs('pause', id)).out).toMatchObject({ paused: true });
      expect((await dvs('resume', id)).out).toMatchObject({ paused: false });
      expect((await dvs('interval', id, 'P2D')).out).toMatchObject({ interval: 'P2D' });
      writeFileSync(file, (await tokens(1)).join('\n'));
      expect((await dvs('tokens', id, '--tokens', file)).out).toMatchObject({ credits: 3 });
      expect((await dvs('show', id)).out).toMatchObject({ id, credits: 3 });
      expect((await dvs('delete', id)).code).toBe(0);
      const gone = await dvs('show', id);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toContain('404: this account has no monitor');
    } finally {
      if (saved === undefined) delete process.env.DVS_API_KEY;
      else process.env.DVS_API_KEY = saved;
    }
  }, 60_000);

  it('drops a token the ledger no longer holds for the monitor, and runs with the next', async () => {
    const created = await svc.api('POST', '/api/monitors', {
      domain: 'good.test',
      interval: 'P1D',
      payment_tokens: await tokens(2),
    });
    const { id } = created.json() as MonitorBody;
    // The token the first run would spend, given back behind the monitor's back.
    const [first] = await svc.schema.query<{ token_hash: string }>(
      'SELECT token_hash FROM monitor_tokens WHERE monitor_id = $1 ORDER BY expires_at, token_hash LIMIT 1',
      [id],
    );
    expect(await ledger.releaseHeld(first!.token_hash, id)).toBe(true);
    expect((await svc.api('PATCH', `/api/monitors/${id}`, { interval: 'PT2S' })).status).toBe(200);
    const m = await until(
      () => monitor(id),
      (x) => x.paused,
    );
    expect(m).toMatchObject({ verdict: 'CERTIFIED', credits: 0, paused_reason: 'no_credits' });
    const spent = await svc.schema.query<{ token_hash: string; certificate_id: string | null }>(
      'SELECT token_hash, certificate_id FROM monitor_tokens WHERE monitor_id = $1',
      [id],
    );
    expect(spent.find((t) => t.token_hash === first!.token_hash)!.certificate_id).toBeNull();
    expect(spent.find((t) => t.token_hash !== first!.token_hash)!.certificate_id).toBe(m.certificate_id);
  }, 60_000);
});
