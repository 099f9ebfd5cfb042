// The lane that answers cached Quick Scans before Koa (src/api/rest/quick-scan-lane.ts): in the service, its answer
// is the Koa route's answer to the same request, counted as Koa counts it; on its own, every request it does
// not answer reaches Koa with its body as sent, whatever its shape.
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPlainBody } from '../../src/api/http/json-body.ts';
import { quickScanLane, type QuickScanLaneDeps } from '../../src/api/rest/quick-scan-lane.ts';
import type { RequestLine } from '../../src/api/http/request-log.ts';
import type { OperationOutcome } from '../../src/api/operations/scan-operations.ts';
import { SECURITY_HEADERS } from '../../src/api/http/security-headers.ts';
import type { ScanResult } from '../../src/service/scan-result.ts';
import { startApiWorld, startTestService, type TestService } from '../server/harness.ts';

interface Answer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

async function post(
  url: string,
  dispatcher: Agent,
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await request(url, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = String(v);
  return { status: res.statusCode, headers: flat, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

/** The fields of an answer that belong to it rather than to its moment or its request, in the order sent. */
const lasting = (headers: Record<string, string>) =>
  Object.entries(headers).filter(([name]) => name !== 'date' && name !== 'x-request-id');

describe('in the service', () => {
  let world: Awaited<ReturnType<typeof startApiWorld>>;
  let svc: TestService;
  const body = JSON.stringify({ domain: 'good.test' });

  beforeAll(async () => {
    world = await startApiWorld(['good']);
    svc = await startTestService({ ...world.env, DVS_METRICS_PORT: '0' });
  });

  afterAll(async () => {
    await svc?.stop();
    await world?.stop();
    world?.removeSites();
  });

  it('answers a cached Quick Scan with the headers and bytes the Koa route sends for it', async () => {
    // The lane finds nothing cached and hands the request to Koa, which scans.
    expect((await post(`${svc.url}/api/quickscan`, svc.agent, body)).headers['x-cache']).toBe('miss');
    for (const acceptEncoding of [undefined, 'gzip, deflate, br', 'gzip', 'br;q=0, gzip;q=0.5', 'identity']) {
      const headers: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      // A query string is not the lane's usual shape, and Koa's route matches the path alone. Both answers are
      // signed within one second when they can be (a signature names its second).
      let viaKoa: Answer;
      let viaLane: Answer;
      let tries = 0;
      do {
        viaKoa = await post(`${svc.url}/api/quickscan?via=koa`, svc.agent, body, headers);
        viaLane = await post(`${svc.url}/api/quickscan`, svc.agent, body, headers);
      } while (viaKoa.headers['signature-input'] !== viaLane.headers['signature-input'] && ++tries < 3);
      expect(viaLane.status).toBe(200);
      expect(viaLane.headers['x-cache']).toBe('hit');
      expect(lasting(viaLane.headers)).toEqual(lasting(viaKoa.headers));
      expect(viaLane.bytes.equals(viaKoa.bytes)).toBe(true);
    }
  });

  it('keeps a sane X-Request-Id and replaces any other, as the Koa path does', async () => {
    const kept = await post(`${svc.url}/api/quickscan`, svc.agent, body, { 'x-request-id': 'trace-42.a:b' });
    expect(kept.headers['x-cache']).toBe('hit');
    expect(kept.headers['x-request-id']).toBe('trace-42.a:b');
    const replaced = await post(`${svc.url}/api/quickscan`, svc.agent, body, { 'x-request-id': 'two words' });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts its answers in the request and cache-hit metrics', async () => {
    const scrape = async () => {
      const res = await request(`http://127.0.0.1:${svc.service.metricsPort!}/metrics`);
      const text = await res.body.text();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
      return {
        answered: value(/^dvs_http_requests_total\{method="POST",route="\/api\/quickscan",status="200"\} (\d+)$/m),
        hits: value(/^dvs_quickscan_cache_hits_total (\d+)$/m),
      };
    };
    await post(`${svc.url}/api/quickscan`, svc.agent, body);
    const before = await scrape();
    for (let i = 0; i < 5; i++) expect((await post(`${svc.url}/api/quickscan`, svc.agent, body)).status).toBe(200);
    const after = await scrape();
    expect(after.answered - before.answered).toBe(5);
    expect(after.hits - before.hits).toBe(5);
  });
});

describe('on its own', () => {
  const CACHED = 'cached.test';
  const result: ScanResult = { content: [{ type: 'text', text: 'cached' }] };
  const lines: RequestLine[] = [];
  const counted: string[] = [];
  /** What reached Koa: the method, the URL and the body handed over (or why it could not be read). */
  const reachedKoa: { method: string; url: string; body: string }[] = [];
  let failing = false;

  const deps: QuickScanLaneDeps = {
    ops: {
      cachedQuickScan: async (body: unknown): Promise<OperationOutcome | null> => {
        if (failing) throw new Error('the cache does not answer');
        const domain = (body as { domain?: unknown } | null)?.domain;
        return domain === CACHED ? { domain, result, cached: true } : null;
      },
    },
    signer: { sign: async (status, digest) => ({ input: `sig1=();status=${status}`, signature: `sig1=:${digest}:` }) },
    logLine: (line) => lines.push(line),
    countAnswer: (method, route, status) => counted.push(`${method} ${route} ${status}`),
    trustProxy: null,
  };

  /** Stands for Koa: reads the body as its JSON routes do, and answers 299 with what it read. */
  const koa = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const length = Number(req.headers['content-length'] ?? 0);
    readPlainBody(req, length).then(
      (bytes) => {
        reachedKoa.push({ method: req.method!, url: req.url!, body: bytes.toString('utf8') });
        res.writeHead(299).end();
      },
      (err: Error) => {
        reachedKoa.push({ method: req.method!, url: req.url!, body: `(${err.message})` });
        res.writeHead(400).end();
      },
    );
  };

  const servers: http.Server[] = [];
  const agent = new Agent();
  async function serve(overrides: Partial<QuickScanLaneDeps> = {}): Promise<string> {
    const server = http.createServer(quickScanLane({ ...deps, ...overrides }, koa));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  let base: string;

  beforeAll(async () => {
    base = await serve();
  });

  afterAll(async () => {
    await agent.close();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('answers a cached domain itself: security headers, signature, one log line and one count', async () => {
    lines.length = 0;
    counted.length = 0;
    const res = await post(`${base}/api/quickscan`, agent, JSON.stringify({ domain: CACHED }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.bytes.toString('utf8'))).toEqual(result);
    for (const [name, value] of SECURITY_HEADERS) expect(res.headers[name.toLowerCase()]).toBe(value);
    expect(res.headers['x-cache']).toBe('hit');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBe(String(res.bytes.length));
    expect(res.headers.signature).toBe(`sig1=:${res.headers['content-digest']}:`);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(lines).toEqual([
      { req_id: res.headers['x-request-id'], method: 'POST', path: '/api/quickscan', status: 200, ms: lines[0]!.ms },
    ]);
    expect(counted).toEqual(['POST /api/quickscan 200']);
  });

  it('hands every other request to Koa with its body as sent', async () => {
    const shape = fc.record({
      method: fc.constantFrom('POST', 'PUT', 'GET'),
      path: fc.constantFrom('/api/quickscan', '/api/quickscan?x=1', '/api/quickscan/', '/API/quickscan', '/mcp'),
      type: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
      signed: fc.boolean(),
      body: fc.oneof(
        fc.constantFrom(JSON.stringify({ domain: CACHED }), '{"domain":"other.test"}', '{"domain":', '[]', ''),
        fc.json(),
      ),
    });
    await fc.assert(
      fc.asyncProperty(shape, async ({ method, path, type, signed, body }) => {
        reachedKoa.length = 0;
        const usual = method === 'POST' && path === '/api/quickscan' && type === 'application/json' && !signed;
        const res = await request(base + path, {
          method: method as 'POST',
          dispatcher: agent,
          headers: { 'content-type': type, ...(signed ? { 'signature-input': 'sig1=()' } : {}) },
          body: method === 'GET' ? undefined : body,
        });
        await res.body.dump();
        if (usual && body === JSON.stringify({ domain: CACHED })) {
          expect(res.statusCode).toBe(200);
          expect(reachedKoa).toEqual([]);
        } else {
          expect(res.statusCode).toBe(299);
          expect(reachedKoa).toEqual([{ method, url: path, body: method === 'GET' ? '' : body }]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('hands a body in a content coding, or of undeclared length, to Koa unread', async () => {
    reachedKoa.length = 0;
    const cached = JSON.stringify({ domain: CACHED });
    const coded = await post(`${base}/api/quickscan`, agent, cached, { 'content-encoding': 'gzip' });
    expect(coded.status).toBe(299);
    const chunked = await request(`${base}/api/quickscan`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: Readable.from([Buffer.from(cached)]),
    });
    await chunked.body.dump();
    expect(chunked.statusCode).toBe(299);
    expect(reachedKoa.map((r) => r.body)).toEqual([cached, '']);
  });

  it('hands a request to Koa when the cache fails, and a body cut short as the error reading it gave', async () => {
    reachedKoa.length = 0;
    failing = true;
    try {
      const res = await post(`${base}/api/quickscan`, agent, JSON.stringify({ domain: CACHED }));
      expect(res.status).toBe(299);
    } finally {
      failing = false;
    }
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(
      'POST /api/quickscan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"do',
    );
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await expect.poll(() => reachedKoa.length).toBe(2);
    expect(reachedKoa[1]).toEqual({ method: 'POST', url: '/api/quickscan', body: '(request aborted)' });
  });

  it('behind a proxy, answers only what the client asked over HTTPS', async () => {
    const proxied = await serve({ trustProxy: { header: 'x-forwarded', hops: 1, networks: [] } });
    const forwarded = await serve({ trustProxy: { header: 'forwarded', hops: 1, networks: [] } });
    const cached = JSON.stringify({ domain: CACHED });
    const status = async (url: string, headers: Record<string, string>) =>
      (await post(url, agent, cached, headers)).status;
    expect(await status(`${proxied}/api/quickscan`, { 'x-forwarded-proto': 'https' })).toBe(200);
    expect(await status(`${proxied}/api/quickscan`, { 'x-forwarded-proto': 'http' })).toBe(299);
    expect(await status(`${forwarded}/api/quickscan`, { forwarded: 'for=192.0.2.1;proto=https' })).toBe(200);
    expect(await status(`${forwarded}/api/quickscan`, { forwarded: 'for=192.0.2.1;proto=http' })).toBe(299);
    expect(await status(`${forwarded}/api/quickscan`, { forwarded: 'for="unclosed' })).toBe(299);
  });
});
