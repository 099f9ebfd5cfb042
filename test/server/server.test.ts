// Operations end to end: the rate limit (429 + Retry-After), scan deadlines (504, the token released), the
// plain-HTTP redirect, the proxy guard, health and readiness, Prometheus metrics, and a graceful shutdown that
// finishes a running Full Validation.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiWorld, startTestService, type TestService } from './harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;

beforeAll(async () => {
  world = await startApiWorld();
});

afterAll(async () => {
  await world?.stop();
  world?.removeSites();
});

async function withService<T>(env: Record<string, string>, run: (svc: TestService) => Promise<T>): Promise<T> {
  const svc = await startTestService({ ...world.env, ...env });
  try {
    return await run(svc);
  } finally {
    await svc.stop();
  }
}

function plainGet(
  port: number,
  pathname: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      })
      .on('error', reject);
  });
}

describe('limits and deadlines', () => {
  it('answers 429 with Retry-After once a client has run its quick scans, and still serves cached ones', async () => {
    await withService({ DVS_QUICK_RATE_LIMIT: '1' }, async (svc) => {
      expect((await svc.post('/api/quickscan', { domain: 'nxdomain.test' })).status).toBe(200);
      const limited = await svc.post('/api/quickscan', { domain: 'good.test' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      const body = limited.json() as { error: string; code: string; retry_after_s: number };
      expect(body.error).toMatch(/too many quick scans/);
      expect(body.code).toBe('rate_limited');
      expect(body.retry_after_s).toBe(Number(limited.headers['retry-after']));
      const cached = await svc.post('/api/quickscan', { domain: 'nxdomain.test' });
      expect(cached.status).toBe(200);
      expect(cached.headers['x-cache']).toBe('hit');
    });
  });

  it('answers 504 when a scan passes its deadline, and releases the payment token', async () => {
    await withService({ DVS_QUICK_DEADLINE_MS: '800', DVS_FULL_DEADLINE_MS: '800' }, async (svc) => {
      const quick = await svc.post('/api/quickscan', { domain: 'slow.test' });
      expect(quick.status, quick.text).toBe(504);
      expect((quick.json() as { error: string }).error).toMatch(/did not finish within its 800 ms deadline/);
      expect((quick.json() as { code: string }).code).toBe('timeout');
      const token = svc.gate.issue();
      const full = await svc.post('/api/fullvalidation', { domain: 'slow.test', payment_token: token });
      expect(full.status, full.text).toBe(504);
      expect(svc.gate.released).toEqual([token]);
    });
  });
});

describe('HTTPS only', () => {
  it('redirects every plain-HTTP request with 308 to the same path on the HTTPS base URL', async () => {
    await withService({ DVS_HTTP_PORT: '0', DVS_BASE_URL: 'https://dvs.example.net' }, async (svc) => {
      expect(svc.service.httpPort).not.toBeNull();
      const res = await plainGet(svc.service.httpPort!, '/api/quickscan?x=1');
      expect(res.status).toBe(308);
      expect(res.headers.location).toBe('https://dvs.example.net/api/quickscan?x=1');
    });
  });

  it('behind a proxy, refuses a request that reached it over plain HTTP', async () => {
    await withService({ DVS_TRUST_PROXY: '1' }, async (svc) => {
      const refused = await svc.post('/api/quickscan', { domain: 'nxdomain.test' }, { 'x-forwarded-proto': 'http' });
      expect(refused.status).toBe(403);
      expect((refused.json() as { error: string }).error).toMatch(/HTTPS only/);
      expect(refused.headers['strict-transport-security']).toBeDefined();
      const allowed = await svc.post('/api/quickscan', { domain: 'nxdomain.test' }, { 'x-forwarded-proto': 'https' });
      expect(allowed.status).toBe(200);
    });
  });
});

describe('operations', () => {
  it('answers /healthz and /readyz', async () => {
    await withService({}, async (svc) => {
      expect((await svc.call('GET', '/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await svc.call('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    });
  });

  it('runs with the real payments side: ready once the ledger answers, checkout mounted, an unknown token refused', async () => {
    const svc = await startTestService({ ...world.env }, { realPayments: true });
    try {
      expect((await svc.call('GET', '/readyz')).json()).toEqual({ status: 'ready' });
      expect((await svc.call('GET', '/checkout')).status).toBe(200);
      const refused = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: 'tok_not_sold' });
      expect(refused.status).toBe(402);
    } finally {
      await svc.stop();
    }
  });

  it('exports request, scan and cache metrics on the separate metrics listener', async () => {
    await withService({ DVS_METRICS_PORT: '0' }, async (svc) => {
      await svc.post('/api/quickscan', { domain: 'good.test' });
      await svc.post('/api/quickscan', { domain: 'good.test' });
      await svc.post('/api/quickscan', { domain: 'bad..test' });
      const res = await plainGet(svc.service.metricsPort!, '/metrics');
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/dvs_http_requests_total\{method="POST",route="\/api\/quickscan",status="200"\} 2/);
      expect(res.text).toMatch(/dvs_http_requests_total\{method="POST",route="\/api\/quickscan",status="400"\} 1/);
      expect(res.text).toMatch(/dvs_scans_total\{tier="quick",verdict="(CERTIFIED|NOT_CONFORMANT|INCOMPLETE)"\} 1/);
      expect(res.text).toMatch(/dvs_scan_duration_seconds_count\{tier="quick"\} 1/);
      expect(res.text).toMatch(/dvs_quickscan_cache_hits_total 1/);
      expect(res.text).toMatch(/process_cpu_user_seconds_total/);
      expect((await plainGet(svc.service.metricsPort!, '/')).status).toBe(404);
      // The public port does not serve metrics.
      expect((await svc.call('GET', '/metrics')).status).toBe(404);
    });
  });

  it('finishes a running Full Validation before it stops', async () => {
    const svc = await startTestService({ ...world.env });
    const token = svc.gate.issue();
    const pending = svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token });
    // Wait until the validation holds its reservation: it is running when close() is called.
    while (svc.gate.state(token) !== 'reserved') await new Promise((r) => setTimeout(r, 10));
    const closed = svc.stop();
    const res = await pending;
    await closed;
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse((res.json() as { content: { text: string }[] }).content[1]!.text)).toMatchObject({
      payload: { domain: 'good.test' },
    });
    expect(svc.gate.state(token)).toBe('redeemed');
    expect(svc.gate.released).toEqual([]);
  });
});
