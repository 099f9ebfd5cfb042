// One Net keeps its HTTP connections per endpoint for the life of a scan: requests to a host share a few, the
// scan's close() ends them, and the trace records each operation with the one it waited for.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Socket } from 'node:net';
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
import { expectEvery } from '../helpers/every.ts';

let dns: DnsServer;
let site: LocalServer;
/** Every connection the site accepted, by the client's port, and whether it has closed since. */
const sockets = new Map<number, Socket>();

const config = (concurrency = 8) =>
  testConfig({
    DVS_DNS_SERVERS: dns.server,
    DVS_ALLOW_NETWORKS: '127.0.0.2/32',
    DVS_MAX_CONCURRENCY: String(concurrency),
  });

beforeAll(async () => {
  dns = await startDnsServer(zone({ 'reuse.test|A': [a('reuse.test', '127.0.0.2')], 'reuse.test|AAAA': [] }));
  site = await startHttpServer('127.0.0.2', (req, res) => {
    sockets.set(req.socket.remotePort!, req.socket);
    if (req.url === '/moved') {
      res.writeHead(301, { location: '/here' });
      res.end('moved to /here');
      return;
    }
    // Slow enough that parallel requests overlap.
    setTimeout(() => res.end(String(req.socket.remotePort)), req.url === '/slow' ? 100 : 0);
  });
});
afterAll(async () => {
  await site?.close();
  await dns?.close();
});

const url = (path: string) => `http://reuse.test:${site.port}${path}`;
/** Each request is sent (fresh): these tests are about connections, not about answers a scan shares. */
const port = async (net: ReturnType<typeof createNet>, path: string) =>
  Number((await net.request(url(path), { fresh: true })).body);

describe('connection reuse', () => {
  it("sends one scan's requests to a host, redirects included, over one kept connection", async () => {
    const net = createNet(config());
    const first = await port(net, '/a');
    const followed = await net.request(url('/moved'), { followRedirects: true });
    expect([Number(followed.body), await port(net, '/b')]).toEqual([first, first]);
    expect(net.httpConnections().map((c) => c.connections)).toEqual([1]);
    const other = createNet(config());
    expect(await port(other, '/a')).not.toBe(first);
    await Promise.all([net.close(), other.close()]);
  });

  it('opens at most as many connections to one endpoint as the scan lets requests run at once', async () => {
    const net = createNet(config(), { concurrency: 3 });
    const ports = await Promise.all(Array.from({ length: 8 }, () => port(net, '/slow')));
    expect(new Set(ports).size).toBe(3);
    await net.close();
    // Counted as set up, for the scan's trace, after close() as before.
    const origin = new URL(url('/')).origin;
    expect(net.httpConnections()).toEqual([{ origin, address: '127.0.0.2', httpVersion: '1.1', connections: 3 }]);
  });

  it('ends every kept connection at close(), and refuses requests after it', async () => {
    const net = createNet(config());
    const kept = sockets.get(await port(net, '/a'))!;
    expect(kept.destroyed).toBe(false);
    await net.close();
    await new Promise((resolve) => (kept.destroyed ? resolve(null) : kept.once('close', resolve)));
    const err = await net.request(url('/a')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetError);
    expect((err as NetError).code).toBe('aborted');
  });
});

describe('the request trace', () => {
  it('records each operation with the one whose result it needed', async () => {
    const net = createNet(config(), { trace: true });
    await net.within('probe', () => net.request(url('/moved'), { followRedirects: true }));
    await net.close();
    const trace = net.trace();
    const dnsIds = trace.filter((t) => t.kind === 'dns').map((t) => t.id);
    const [hop1, hop2] = trace.filter((t) => t.kind === 'http');
    expect(dnsIds).toHaveLength(2);
    expect(dnsIds).toContain(hop1!.waitedFor);
    expect([hop1!.target, hop2!.target]).toEqual([`GET ${url('/moved')}`, `GET ${url('/here')}`]);
    expect(hop2!.waitedFor).toBe(hop1!.id);
    expectEvery(trace, (t) => t.scope === 'probe' && t.ok && t.endMs >= t.startMs, 'every traced step');
    expect(createNet(config()).trace()).toEqual([]);
  });

  it("counts a wait for one of the scan's slots as a queue, not as waiting for the request that freed it", async () => {
    const net = createNet(config(1), { trace: true });
    await net.within('probe', () =>
      Promise.all([net.request(url('/slow'), { fresh: true }), net.request(url('/slow'), { fresh: true })]),
    );
    await net.close();
    const trace = net.trace();
    const addresses = trace.filter((t) => t.kind === 'dns').map((t) => t.id);
    const [first, second] = trace.filter((t) => t.kind === 'http');
    expect(second!.startMs).toBeGreaterThanOrEqual(first!.endMs);
    expect(second!.askedMs).toBeLessThan(first!.endMs);
    expect(addresses).toEqual(expect.arrayContaining([first!.waitedFor, second!.waitedFor]));
  });

  it("makes a request wait for its host's A and AAAA answers, not for other questions about the name", async () => {
    const net = createNet(config(), { trace: true });
    await net.within('first', () => net.request(url('/a')));
    await net.within('other', () => net.dns('reuse.test', 'TXT'));
    await net.within('later', () => net.request(url('/a'), { fresh: true }));
    await net.close();
    const trace = net.trace();
    const later = trace.find((t) => t.kind === 'http' && t.scope === 'later')!;
    expect(trace.find((t) => t.id === later.waitedFor)!.target).toMatch(/^reuse\.test (A|AAAA)$/);
  });
});
