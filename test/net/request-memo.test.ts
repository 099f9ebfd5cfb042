// One scan asks each GET question once: the same URL, request headers, decoding, redirect policy and address
// are sent once and the answer serves every caller, the ones asking while it is in flight too; what can change
// the answer keeps requests apart, and other methods and fresh requests are always sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { createNet } from '../../src/net/index.ts';
import { NetError } from '../../src/net/types.ts';
import {
  startDnsServer,
  startHttpServer,
  zone,
  a,
  testConfig,
  type DnsServer,
  type LocalServer,
} from './local-servers.ts';

let dns: DnsServer;
let site: LocalServer;
/** Every request the site received: method, path, Accept. */
const received: string[] = [];
const LONG = 'x'.repeat(4000);

beforeAll(async () => {
  dns = await startDnsServer(zone({ 'memo.test|A': [a('memo.test', '127.0.0.2')], 'memo.test|AAAA': [] }));
  site = await startHttpServer('127.0.0.2', (req, res) => {
    received.push(`${req.method} ${req.url} ${req.headers.accept ?? '-'}`);
    const body = req.url === '/long' ? LONG : `${req.url} ${req.headers.accept ?? '-'} ${received.length}`;
    if (req.url === '/gzip' && req.headers['accept-encoding']?.includes('gzip')) {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync(LONG));
      return;
    }
    // Slow enough that requests asked together overlap.
    setTimeout(() => res.end(body), req.url === '/slow' ? 100 : 0);
  });
});
afterAll(async () => {
  await site?.close();
  await dns?.close();
});

const config = () => testConfig({ DVS_DNS_SERVERS: dns.server, DVS_ALLOW_NETWORKS: '127.0.0.2/32' });
const url = (path: string) => `http://memo.test:${site.port}${path}`;

/** The requests the site receives while `fn` runs on a fresh Net. */
async function sentWhile(fn: (net: ReturnType<typeof createNet>) => Promise<unknown>): Promise<string[]> {
  const before = received.length;
  const net = createNet(config());
  try {
    await fn(net);
  } finally {
    await net.close();
  }
  return received.slice(before);
}

describe('the per-scan request memo', () => {
  it('sends a GET asked twice, or asked while in flight, once, and gives every caller its answer', async () => {
    let bodies: string[] = [];
    const sent = await sentWhile(async (net) => {
      const both = await Promise.all([net.request(url('/slow')), net.request(url('/slow'))]);
      const later = await net.request(url('/slow'));
      bodies = [...both, later].map((r) => r.body.toString());
    });
    expect(sent).toEqual(['GET /slow -']);
    expect(new Set(bodies).size).toBe(1);
  });

  it('keeps apart what can change the answer: headers, decoding, redirects, the scan', async () => {
    const sent = await sentWhile(async (net) => {
      await net.request(url('/a'));
      await net.request(url('/a'), { headers: { accept: 'text/html' } });
      await net.request(url('/a'), { headers: { Accept: 'text/html' } });
      await net.request(url('/a'), { decompress: true });
      await net.request(url('/a'), { followRedirects: true });
    });
    expect(sent).toEqual(['GET /a -', 'GET /a text/html', 'GET /a -', 'GET /a -']);
    expect(await sentWhile((net) => net.request(url('/a')))).toEqual(['GET /a -']);
  });

  it('always sends other methods and fresh requests', async () => {
    const sent = await sentWhile(async (net) => {
      for (const method of ['OPTIONS', 'OPTIONS', 'POST', 'POST'] as const) await net.request(url('/m'), { method });
      await net.request(url('/m'));
      await net.request(url('/m'), { fresh: true });
    });
    expect(sent).toEqual(['OPTIONS /m -', 'OPTIONS /m -', 'POST /m -', 'POST /m -', 'GET /m -', 'GET /m -']);
  });

  it('serves a smaller body cap from a larger one exactly as a capped read would have', async () => {
    let answers: { bytes: number; truncated: boolean; wire: number }[] = [];
    const sent = await sentWhile(async (net) => {
      const read = async (maxBodyBytes: number) => {
        const r = await net.request(url('/long'), { maxBodyBytes });
        return { bytes: r.body.length, truncated: r.truncated, wire: r.wireBytes };
      };
      answers = [await read(8000), await read(1024), await read(4000), await read(5000)];
    });
    expect(sent).toEqual(['GET /long -']);
    expect(answers).toEqual([
      { bytes: 4000, truncated: false, wire: 4000 },
      { bytes: 1024, truncated: true, wire: 1024 },
      { bytes: 4000, truncated: false, wire: 4000 },
      { bytes: 4000, truncated: false, wire: 4000 },
    ]);
  });

  it('asks again for a larger cap when the smaller answer was cut, and keeps the cap apart when decoding', async () => {
    let full = 0;
    const sent = await sentWhile(async (net) => {
      const [cut] = await Promise.all([
        net.request(url('/long'), { maxBodyBytes: 1024 }),
        net.request(url('/long'), { maxBodyBytes: 8000 }).then((r) => (full = r.body.length)),
      ]);
      expect(cut.truncated).toBe(true);
      await net.request(url('/gzip'), { decompress: true, maxBodyBytes: 8000 });
      await net.request(url('/gzip'), { decompress: true, maxBodyBytes: 1024 });
    });
    expect(full).toBe(4000);
    expect(sent).toEqual(['GET /long -', 'GET /long -', 'GET /gzip -', 'GET /gzip -']);
  });

  it('serves a request pinned to an address from the same request sent to that address unpinned', async () => {
    const sent = await sentWhile(async (net) => {
      await net.request(url('/pin'));
      await net.request(url('/pin'), { address: { address: '127.0.0.2', family: 4 } });
    });
    expect(sent).toEqual(['GET /pin -']);
  });

  it("tells the trace that a probe served from another's answer waited for that request", async () => {
    const net = createNet(config(), { trace: true });
    await net.within('first', () => net.request(url('/t')));
    await net.within('later', async () => {
      await net.request(url('/t'));
      await net.request(url('/after'));
    });
    await net.close();
    const http = net.trace().filter((t) => t.kind === 'http');
    expect(http.map((t) => `${t.scope} ${t.target}`)).toEqual([`first GET ${url('/t')}`, `later GET ${url('/after')}`]);
    expect(http[1]!.waitedFor).toBe(http[0]!.id);
  });

  it('lets one caller give up without failing the others, and asks afresh once every caller has', async () => {
    const sent = await sentWhile(async (net) => {
      const quitter = new AbortController();
      const given = net.request(url('/slow'), { signal: quitter.signal }).catch((e: unknown) => e);
      const kept = net.request(url('/slow'));
      quitter.abort();
      expect(((await given) as NetError).code).toBe('aborted');
      expect((await kept).status).toBe(200);

      const alone = new AbortController();
      const asked = { headers: { accept: 'alone' } };
      const abandoned = net.request(url('/slow'), { ...asked, signal: alone.signal }).catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 20));
      alone.abort();
      expect(await abandoned).toBeInstanceOf(NetError);
      expect((await net.request(url('/slow'), asked)).status).toBe(200);
    });
    expect(sent.filter((s) => s.startsWith('GET /slow -'))).toHaveLength(1);
  });
});
