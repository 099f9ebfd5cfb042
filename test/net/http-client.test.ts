import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import {
  createGzip,
  createBrotliCompress,
  createDeflate,
  gzipSync,
  constants as zlibConstants,
  type Gzip,
} from 'node:zlib';
import { createNet } from '../../src/net/index.ts';
import { NetError, type HttpExchange } from '../../src/net/types.ts';
import {
  startDnsServer,
  startHttpServer,
  startHttpsServer,
  startRawServer,
  makeTestCa,
  zone,
  a,
  testConfig,
  type DnsServer,
  type LocalServer,
  type TestCa,
} from './local-servers.ts';

const MiB = 1024 * 1024;
const servers: LocalServer[] = [];
let dns: DnsServer;
let ca: TestCa;
let site: LocalServer;
let evil: LocalServer;

/** Compresses `total` zero bytes as a stream, so the test never holds the uncompressed bomb. */
async function bomb(make: () => Gzip, total: number): Promise<Buffer> {
  const z = make();
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const zeros = Buffer.alloc(MiB);
  for (let sent = 0; sent < total; sent += MiB) if (!z.write(zeros)) await once(z, 'drain');
  z.end();
  await once(z, 'end');
  return Buffer.concat(out);
}

const bombs: Record<string, Buffer> = {};
/** 64 KiB that gzip cannot shrink, so its compressed form is larger than a 16 KiB cap. */
const incompressible = Buffer.concat(
  Array.from({ length: 2048 }, (_, i) => createHash('sha256').update(String(i)).digest()),
);

async function streamBytes(res: ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
    if (!res.write(chunk)) {
      // Whichever event comes first, the other's listeners go, or every full buffer would leave two behind.
      const settled = new AbortController();
      await Promise.race([
        once(res, 'drain', { signal: settled.signal }),
        once(res, 'close', { signal: settled.signal }),
      ]).finally(() => settled.abort());
    }
  }
  res.end();
}

const config = (env: Record<string, string> = {}) =>
  testConfig({
    DVS_DNS_SERVERS: dns.server,
    DVS_ALLOW_NETWORKS: '127.0.0.2/32',
    DVS_EXTRA_CA: ca.caFile,
    DVS_USER_AGENT: 'dvs-net-test/1',
    ...env,
  });

beforeAll(async () => {
  ca = await makeTestCa();
  bombs.gzip = await bomb(createGzip, 64 * MiB);
  bombs.br = await bomb(() => createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }), 64 * MiB);
  bombs.deflate = await bomb(createDeflate, 64 * MiB);
  let inFlight = 0;
  site = await startHttpServer('127.0.0.2', (req, res) => {
    const url = new URL(req.url!, 'http://x');
    switch (url.pathname) {
      case '/hello':
        res.setHeader('strict-transport-security', ['max-age=1', 'max-age=2; includeSubDomains']);
        res.writeHead(200, {
          'content-type': 'text/plain',
          'set-cookie': ['a=1', 'b=2'],
          'x-ua': req.headers['user-agent'] ?? '',
        });
        res.end('hello');
        return;
      case '/to-evil':
        res.writeHead(302, { location: `http://evil.test:${evil.port}/` });
        res.end();
        return;
      case '/two-locations':
        res.setHeader('location', ['/hello?first', '/hello?second']);
        res.writeHead(302);
        res.end();
        return;
      case '/same-location-twice':
        res.setHeader('location', ['/hello?twice', '/hello?twice']);
        res.writeHead(302);
        res.end();
        return;
      case '/relative':
        res.writeHead(301, { location: '/hello?from=relative' });
        res.end();
        return;
      case '/post-see-other':
        res.writeHead(303, { location: '/echo-method' });
        res.end();
        return;
      case '/echo-method':
        res.end(req.method);
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        res.end();
        return;
      case '/odd-redirect':
        res.writeHead(302, { location: `http://0x7f.0.0.2:${site.port}/hello` });
        res.end();
        return;
      case '/bad-redirect':
        res.writeHead(302, { location: 'ftp://site.test/file' });
        res.end();
        return;
      case '/big':
        void streamBytes(res, 50 * MiB);
        return;
      case '/exact':
        res.end(Buffer.alloc(4096, 0x62));
        return;
      case '/gzip-small':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(gzipSync('decoded text'));
        return;
      case '/gzip-incompressible':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(gzipSync(incompressible));
        return;
      case '/corrupt-gzip':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(Buffer.from('this is not gzip at all'));
        return;
      case '/bomb':
        res.writeHead(200, { 'content-encoding': url.searchParams.get('enc')! });
        res.end(bombs[url.searchParams.get('enc')!]);
        return;
      case '/slow': {
        // Answers with how many requests were in flight here when it arrived.
        const seen = ++inFlight;
        setTimeout(() => {
          res.end(String(seen));
          inFlight--;
        }, 150);
        return;
      }
      default:
        res.writeHead(404);
        res.end();
    }
  });
  evil = await startHttpServer('127.0.0.3', (_req, res) => res.end('evil'));
  servers.push(site, evil);
  dns = await startDnsServer(
    zone({
      'site.test|A': [a('site.test', '127.0.0.2')],
      'site.test|AAAA': [],
      'evil.test|A': [a('evil.test', '127.0.0.3')],
      'evil.test|AAAA': [],
      'secure.test|A': [a('secure.test', '127.0.0.2')],
      'secure.test|AAAA': [],
      'flood.test|A': [a('flood.test', '127.0.0.2')],
      'flood.test|AAAA': [],
    }),
  );
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await dns.close();
});

const failure = async (p: Promise<unknown>): Promise<NetError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
};

describe('http client: policy and pinning', () => {
  it('refuses a loopback host unless allowNetworks allows it', async () => {
    const refused = await failure(
      createNet(config({ DVS_ALLOW_NETWORKS: '' })).request(`http://site.test:${site.port}/hello`),
    );
    expect(refused.code).toBe('policy_refused');
    const ok = await createNet(config()).request(`http://site.test:${site.port}/hello`);
    expect(ok).toMatchObject({
      status: 200,
      address: '127.0.0.2',
      httpVersion: '1.1',
      truncated: false,
      contentEncoding: null,
    });
    expect(ok.body.toString()).toBe('hello');
    expect(ok.headers['x-ua']).toBe('dvs-net-test/1');
    expect(ok.fieldLines['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(ok.headers['set-cookie']).toBeUndefined();
    // Repeated lines stay apart in fieldLines (RFC 6797 section 8.1 reads the first) and are joined in headers.
    expect(ok.fieldLines['strict-transport-security']).toEqual(['max-age=1', 'max-age=2; includeSubDomains']);
    expect(ok.headers['strict-transport-security']).toBe('max-age=1, max-age=2; includeSubDomains');
    expect(ok.fieldLines['x-ua']).toEqual(['dvs-net-test/1']);
    expect(ok.chain).toEqual([
      { url: `http://site.test:${site.port}/hello`, status: 200, location: null, address: '127.0.0.2' },
    ]);
  });

  it('refuses a redirect to a refused address and records the hop', async () => {
    const err = await failure(
      createNet(config()).request(`http://site.test:${site.port}/to-evil`, { followRedirects: true }),
    );
    expect(err.code).toBe('policy_refused');
    expect(err.detail).toContain(`redirect hop 1 to http://evil.test:${evil.port}/`);
    expect(err.detail).toContain('127.0.0.3 (loopback)');
    expect(err.chain).toEqual([
      {
        url: `http://site.test:${site.port}/to-evil`,
        status: 302,
        location: `http://evil.test:${evil.port}/`,
        address: '127.0.0.2',
      },
    ]);
  });

  it('returns the redirect itself when not asked to follow', async () => {
    const r = await createNet(config()).request(`http://site.test:${site.port}/to-evil`);
    expect(r).toMatchObject({ status: 302, headers: { location: `http://evil.test:${evil.port}/` } });
  });

  it('follows relative redirects, switching to GET after 303', async () => {
    const net = createNet(config());
    const r = await net.request(`http://site.test:${site.port}/relative`, { followRedirects: true });
    expect(r.status).toBe(200);
    expect(r.url).toBe(`http://site.test:${site.port}/hello?from=relative`);
    expect(r.chain.map((h) => h.status)).toEqual([301, 200]);
    const post = await net.request(`http://site.test:${site.port}/post-see-other`, {
      method: 'POST',
      body: 'x=1',
      followRedirects: true,
    });
    expect(post.body.toString()).toBe('GET');
  });

  it('follows a Location only when its field lines name one target (RFC 9110 section 10.2.2)', async () => {
    const net = createNet(config());
    const two = await net.request(`http://site.test:${site.port}/two-locations`, { followRedirects: true });
    expect(two.status).toBe(302);
    expect(two.chain).toHaveLength(1);
    expect(two.chain[0]!.location).toBeNull();
    expect(two.fieldLines['location']).toEqual(['/hello?first', '/hello?second']);
    const same = await net.request(`http://site.test:${site.port}/same-location-twice`, { followRedirects: true });
    expect(same.url).toBe(`http://site.test:${site.port}/hello?twice`);
  });

  it('stops redirect loops and odd or unsupported redirect targets', async () => {
    const net = createNet(config({ DVS_MAX_REDIRECTS: '3' }));
    const loop = await failure(net.request(`http://site.test:${site.port}/loop`, { followRedirects: true }));
    expect(loop.code).toBe('too_many_redirects');
    expect(loop.chain).toHaveLength(4);
    const odd = await failure(net.request(`http://site.test:${site.port}/odd-redirect`, { followRedirects: true }));
    expect([odd.code, odd.detail, odd.chain?.length]).toEqual([
      'policy_refused',
      `redirect hop 1: Location http://0x7f.0.0.2:${site.port}/hello`,
      1,
    ]);
    const ftp = await failure(net.request(`http://site.test:${site.port}/bad-redirect`, { followRedirects: true }));
    expect([ftp.code, ftp.detail]).toEqual(['bad_redirect', 'redirect hop 1: Location ftp://site.test/file']);
  });

  it('refuses odd IP spellings and non-http URLs before any connection', async () => {
    const net = createNet(config());
    expect((await failure(net.request(`http://0x7f.0.0.2:${site.port}/hello`))).code).toBe('policy_refused');
    expect((await failure(net.request(`http://2130706434:${site.port}/hello`))).code).toBe('policy_refused');
    expect((await failure(net.request('file:///etc/passwd'))).code).toBe('bad_url');
    expect((await failure(net.request('not a url'))).code).toBe('bad_url');
    const literal = await net.request(`http://127.0.0.2:${site.port}/hello`);
    expect(literal.status).toBe(200);
  });

  it('connects to the address it resolved once, even when DNS later answers differently', async () => {
    const rebinding = await startDnsServer((q, count) =>
      q.type === 'A' ? { answers: [a(q.name, count === 1 ? '127.0.0.2' : '127.0.0.4')] } : {},
    );
    const other = await startHttpServer('127.0.0.4', (_req, res) => res.end('rebound'), site.port);
    try {
      const cfg = config({ DVS_DNS_SERVERS: rebinding.server, DVS_ALLOW_NETWORKS: '127.0.0.0/8' });
      const net = createNet(cfg);
      const first = await net.request(`http://rebind.test:${site.port}/hello`);
      const second = await net.request(`http://rebind.test:${site.port}/hello`);
      expect([first.address, first.body.toString(), second.address, second.body.toString()]).toEqual([
        '127.0.0.2',
        'hello',
        '127.0.0.2',
        'hello',
      ]);
      expect(rebinding.queries.filter((q) => q.type === 'A')).toHaveLength(1);
      // A new scan sees the new answer: the DNS server really rebinds, the pin is what kept the old address.
      const later = await createNet(cfg).request(`http://rebind.test:${site.port}/hello`);
      expect([later.address, later.body.toString()]).toEqual(['127.0.0.4', 'rebound']);
    } finally {
      await other.close();
      await rebinding.close();
    }
  });

  it('uses an address the caller pins, after checking it', async () => {
    const net = createNet(config());
    const r = await net.request(`http://site.test:${site.port}/hello`, {
      address: { address: '127.0.0.2', family: 4 },
    });
    expect(r.address).toBe('127.0.0.2');
    const refused = await failure(
      net.request(`http://site.test:${site.port}/hello`, { address: { address: '127.0.0.3', family: 4 } }),
    );
    expect(refused.code).toBe('policy_refused');
  });

  it('reports a closed port as connect_refused', async () => {
    const closed = await startRawServer('127.0.0.2', () => undefined);
    await closed.close();
    expect((await failure(createNet(config()).request(`http://site.test:${closed.port}/`))).code).toBe(
      'connect_refused',
    );
  });
});

describe('http client: limits', () => {
  it('cuts a 50 MB body at the cap without holding it in memory', async () => {
    const net = createNet(config({ DVS_MAX_BODY_BYTES: String(MiB) }));
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 5);
    let r: HttpExchange;
    try {
      r = await net.request(`http://site.test:${site.port}/big`);
    } finally {
      clearInterval(sampler);
    }
    expect(r.body.length).toBe(MiB);
    expect(r.truncated).toBe(true);
    expect(r.wireBytes).toBe(MiB);
    expect(peak - baseline).toBeLessThan(24 * MiB);
    const small = await net.request(`http://site.test:${site.port}/big`, { maxBodyBytes: 1000 });
    expect([small.body.length, small.truncated]).toEqual([1000, true]);
  });

  it('does not mark a body that exactly fills the cap as truncated', async () => {
    const r = await createNet(config()).request(`http://site.test:${site.port}/exact`, { maxBodyBytes: 4096 });
    expect([r.body.length, r.truncated]).toEqual([4096, false]);
  });

  it('decodes compressed bodies when asked, and leaves them alone otherwise', async () => {
    const net = createNet(config());
    const decoded = await net.request(`http://site.test:${site.port}/gzip-small`, { decompress: true });
    expect([decoded.body.toString(), decoded.contentEncoding, decoded.truncated]).toEqual([
      'decoded text',
      'gzip',
      false,
    ]);
    const raw = await net.request(`http://site.test:${site.port}/gzip-small`);
    expect(raw.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect((await failure(net.request(`http://site.test:${site.port}/corrupt-gzip`, { decompress: true }))).code).toBe(
      'protocol_error',
    );
  });

  it('decodes what came before the cut of a compressed body cut on the wire', async () => {
    const r = await createNet(config()).request(`http://site.test:${site.port}/gzip-incompressible`, {
      decompress: true,
      maxBodyBytes: 16 * 1024,
    });
    expect([r.truncated, r.wireBytes]).toEqual([true, 16 * 1024]);
    expect(r.body.length).toBeGreaterThan(8 * 1024);
    expect(r.body.equals(incompressible.subarray(0, r.body.length)), 'a prefix of the original').toBe(true);
  });

  it.each(['gzip', 'br', 'deflate'])('cuts a %s decompression bomb at the cap', async (enc) => {
    const r = await createNet(config({ DVS_MAX_BODY_BYTES: String(MiB) })).request(
      `http://site.test:${site.port}/bomb?enc=${enc}`,
      { decompress: true },
    );
    expect(r.body.length).toBe(MiB);
    expect(r.truncated).toBe(true);
    expect(r.wireBytes).toBeLessThanOrEqual(bombs[enc]!.length);
    expect(
      r.body.findIndex((b) => b !== 0),
      'first non-zero byte',
    ).toBe(-1);
  });

  it('gives headers_too_large for a header flood', async () => {
    const flood = await startRawServer('127.0.0.2', (socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      const line = `x-flood: ${'f'.repeat(1000)}\r\n`;
      const pump = (): void => {
        while (!socket.destroyed && socket.write(line));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    });
    servers.push(flood);
    const err = await failure(createNet(config()).request(`http://flood.test:${flood.port}/`));
    expect(err.code).toBe('headers_too_large');
  });

  it('gives timeout for a host that never answers, trickles headers, or trickles the body', async () => {
    const behaviours: Record<string, (socket: import('node:net').Socket) => void> = {
      silent: () => undefined,
      headers: (socket) => {
        socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
        const t = setInterval(() => (socket.destroyed ? clearInterval(t) : socket.write('a')), 100);
      },
      body: (socket) => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n');
        const t = setInterval(() => (socket.destroyed ? clearInterval(t) : socket.write('b')), 100);
      },
    };
    const net = createNet(config({ DVS_REQUEST_TIMEOUT_MS: '800' }));
    for (const [name, behaviour] of Object.entries(behaviours)) {
      const slow = await startRawServer('127.0.0.2', behaviour);
      servers.push(slow);
      const started = Date.now();
      const err = await failure(net.request(`http://site.test:${slow.port}/`));
      expect(err.code, name).toBe('timeout');
      expect(Date.now() - started, name).toBeLessThan(10_000);
    }
  });

  it('keeps the code of a connection that breaks or stalls in a compressed body (not protocol_error)', async () => {
    const part = gzipSync(Buffer.alloc(256 * 1024, 0x63)).subarray(0, 200);
    const head = `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: 100000\r\n\r\n`;
    const reset = await startRawServer('127.0.0.2', (socket) => {
      socket.write(head);
      socket.write(part, () => socket.destroy());
    });
    const stall = await startRawServer('127.0.0.2', (socket) => {
      socket.write(head);
      socket.write(part);
    });
    servers.push(reset, stall);
    const net = createNet(config({ DVS_REQUEST_TIMEOUT_MS: '500' }));
    const broken = await failure(net.request(`http://site.test:${reset.port}/`, { decompress: true }));
    expect(broken.code).toBe('connect_error');
    const stalled = await failure(net.request(`http://site.test:${stall.port}/`, { decompress: true }));
    expect(stalled.code).toBe('timeout');
  });

  it('does not count the time this process was held up against the host', async () => {
    // The reply is written at once; then the event loop is blocked well past the time limit before it can be
    // read. The host answered in time, so the request succeeds (a wall-clock limit failed it as a timeout).
    let onWritten = (): void => undefined;
    const written = new Promise<void>((resolve) => (onWritten = resolve));
    const prompt = await startRawServer('127.0.0.2', (socket) => {
      const body = Buffer.alloc(300 * 1024, 0x64);
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`);
      socket.write(body, onWritten);
    });
    servers.push(prompt);
    const pending = createNet(config({ DVS_REQUEST_TIMEOUT_MS: '300' })).request(`http://site.test:${prompt.port}/`);
    await written;
    const until = performance.now() + 1000;
    while (performance.now() < until);
    const r = await pending;
    expect([r.status, r.body.length]).toEqual([200, 300 * 1024]);
  });

  it('learns once per scan that an endpoint never completes a TLS handshake', async () => {
    const silentTls = await startRawServer('127.0.0.2', () => undefined);
    servers.push(silentTls);
    const timed = async (net: ReturnType<typeof createNet>, path: string) => {
      const started = performance.now();
      const err = await failure(net.request(`https://site.test:${silentTls.port}${path}`));
      return { code: err.code, ms: performance.now() - started };
    };
    const net = createNet(config({ DVS_REQUEST_TIMEOUT_MS: '400' }));
    const first = await timed(net, '/a');
    const second = await timed(net, '/b');
    expect([first.code, second.code]).toEqual(['timeout', 'timeout']);
    expect(first.ms).toBeGreaterThanOrEqual(390);
    expect(second.ms).toBeLessThan(first.ms);
    // Another scan (another Net) gives the host its full time again.
    expect((await timed(createNet(config({ DVS_REQUEST_TIMEOUT_MS: '400' })), '/a')).ms).toBeGreaterThanOrEqual(390);
  });

  it('gives aborted when the caller aborts', async () => {
    const silent = await startRawServer('127.0.0.2', () => undefined);
    servers.push(silent);
    const controller = new AbortController();
    const pending = createNet(config()).request(`http://site.test:${silent.port}/`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('aborted');
  });

  it('keeps at most maxConcurrentPerScan requests in flight per Net', async () => {
    const net = createNet(config({ DVS_MAX_CONCURRENCY: '2' }));
    const results = await Promise.all(
      Array.from({ length: 6 }, () => net.request(`http://site.test:${site.port}/slow`, { fresh: true })),
    );
    const seen = results.map((r) => Number(r.body.toString()));
    expect(Math.max(...seen)).toBe(2);
    const wide = createNet(config({ DVS_MAX_CONCURRENCY: '6' }));
    const wideSeen = (
      await Promise.all(
        Array.from({ length: 6 }, () => wide.request(`http://site.test:${site.port}/slow`, { fresh: true })),
      )
    ).map((r) => Number(r.body.toString()));
    expect(Math.max(...wideSeen)).toBeGreaterThan(2);
  });
});

describe('http client: TLS', () => {
  it('checks the certificate against the URL host with the extra CA', async () => {
    const good = await startHttpsServer('127.0.0.2', await ca.issue(['secure.test']), (_req, res) => res.end('secure'));
    servers.push(good);
    const r = await createNet(config()).request(`https://secure.test:${good.port}/`);
    expect([r.status, r.body.toString()]).toEqual([200, 'secure']);
    const noCa = await failure(createNet(config({ DVS_EXTRA_CA: '' })).request(`https://secure.test:${good.port}/`));
    expect(noCa.code).toBe('tls_error');
    const wrongName = await failure(createNet(config()).request(`https://site.test:${good.port}/`));
    expect([wrongName.code, wrongName.detail]).toEqual(['tls_error', 'ERR_TLS_CERT_ALTNAME_INVALID']);
  });
});
