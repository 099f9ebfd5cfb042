// HTTPS connections offer h2: a host that takes it gets the scan's requests as streams of one connection, each
// exchange says which version carried it, and a host that speaks only HTTP/1.1 is asked as before.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Http2Session } from 'node:http2';
import { createNet } from '../../src/net/index.ts';
import {
  startDnsServer,
  startHttp2Server,
  startHttpsServer,
  startRawServer,
  zone,
  a,
  testConfig,
  makeTestCa,
  type DnsServer,
  type LocalServer,
} from './local-servers.ts';

let dns: DnsServer;
let h2: LocalServer;
let h1: LocalServer;
let few: LocalServer;
/** Takes connections and never says a word: a TLS handshake to it never completes. */
let mute: LocalServer;
const sessions = new Set<Http2Session>();
let inFlight = 0;
let peak = 0;

const config = () =>
  testConfig({
    DVS_DNS_SERVERS: dns.server,
    DVS_ALLOW_NETWORKS: '127.0.0.2/32,127.0.0.3/32,127.0.0.4/32,127.0.0.5/32',
    DVS_EXTRA_CA: caFile,
  });
let caFile: string;

beforeAll(async () => {
  dns = await startDnsServer(
    zone({
      'h2.test|A': [a('h2.test', '127.0.0.2')],
      'h2.test|AAAA': [],
      'h1.test|A': [a('h1.test', '127.0.0.3')],
      'h1.test|AAAA': [],
      'few.test|A': [a('few.test', '127.0.0.4')],
      'few.test|AAAA': [],
      'mute.test|A': [a('mute.test', '127.0.0.5')],
      'mute.test|AAAA': [],
    }),
  );
  const ca = await makeTestCa();
  caFile = ca.caFile;
  const started = await startHttp2Server('127.0.0.2', await ca.issue(['h2.test']), (req, res) => {
    if (req.stream) sessions.add(req.stream.session!);
    // The connection is wound down after this stream: a later request needs a connection of its own.
    if (req.url === '/goaway') req.stream.session?.goaway(0, req.stream.id);
    if (req.url === '/huge-fields') res.setHeader('x-filler', 'x'.repeat(40 * 1024));
    if (req.url === '/fields') {
      res.setHeader('strict-transport-security', ['max-age=1', 'max-age=2; preload']);
      res.setHeader('constructor', 'a field name like any other');
    }
    inFlight++;
    peak = Math.max(peak, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Slow enough that parallel requests overlap.
      setTimeout(() => {
        inFlight--;
        res.end(`${req.method} ${req.httpVersion} ${Buffer.concat(chunks).toString()}`);
      }, 50);
    });
  });
  h2 = started;
  few = await startHttp2Server(
    '127.0.0.4',
    await ca.issue(['few.test']),
    (_req, res) => void setTimeout(() => res.end('one of few'), 20),
    { maxConcurrentStreams: 2 },
  );
  mute = await startRawServer('127.0.0.5', () => undefined);
  h1 = await startHttpsServer('127.0.0.3', await ca.issue(['h1.test']), (req, res) => {
    res.setHeader('constructor', 'a field name like any other');
    res.setHeader('__proto__', 'this one too');
    res.end(req.httpVersion);
  });
});
afterAll(async () => {
  await Promise.all([h2?.close(), h1?.close(), few?.close(), mute?.close(), dns?.close()]);
});

describe('HTTP/2', () => {
  it('reports HTTP/2 for a host that takes h2, and sends a request body over it', async () => {
    const net = createNet(config());
    const exchange = await net.request(`https://h2.test:${h2.port}/`);
    expect(exchange.httpVersion).toBe('2');
    expect(exchange.body.toString()).toBe('GET 2.0 ');
    const posted = await net.request(`https://h2.test:${h2.port}/form`, { method: 'POST', body: 'a=1' });
    expect([posted.httpVersion, posted.body.toString()]).toEqual(['2', 'POST 2.0 a=1']);
    await net.close();
  });

  it('keeps every field line as sent, where Node would join them into one', async () => {
    const net = createNet(config());
    const exchange = await net.request(`https://h2.test:${h2.port}/fields`);
    expect(exchange.fieldLines['strict-transport-security']).toEqual(['max-age=1', 'max-age=2; preload']);
    expect(exchange.fieldLines.constructor).toEqual(['a field name like any other']);
    await net.close();
  });

  it('refuses a header block past the limit, as over HTTP/1.1', async () => {
    const net = createNet(config());
    const err = await net.request(`https://h2.test:${h2.port}/huge-fields`).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'headers_too_large' });
    expect((await net.request(`https://h2.test:${h2.port}/after`)).status).toBe(200);
    await net.close();
  });

  it('carries parallel requests as streams of one connection, more at once than the HTTP/1.1 bound', async () => {
    sessions.clear();
    peak = 0;
    const net = createNet(config(), { concurrency: 2 });
    // Asked together: the first sets up the connection, the rest wait for it and then share it.
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => net.request(`https://h2.test:${h2.port}/${i}`)));
    expect(all.map((x) => x.httpVersion)).toEqual(Array(12).fill('2'));
    expect(sessions.size).toBe(1);
    expect(peak).toBeGreaterThan(2);
    // Four streams per slot, beside the slots themselves (the first request held one while it set up).
    expect(peak).toBeLessThanOrEqual(2 + 8);
    await net.close();
  });

  it('sends again the streams a host refused before saying how many it takes at once', async () => {
    const net = createNet(config());
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) => net.request(`https://few.test:${few.port}/${i}`)),
    );
    expect(all.map((x) => x.body.toString())).toEqual(Array(8).fill('one of few'));
    await net.close();
  });

  it('opens another connection once the host has wound one down (GOAWAY)', async () => {
    sessions.clear();
    const net = createNet(config());
    expect((await net.request(`https://h2.test:${h2.port}/goaway`)).status).toBe(200);
    const after = await net.request(`https://h2.test:${h2.port}/after-goaway`);
    expect([after.status, after.httpVersion, sessions.size]).toEqual([200, '2', 2]);
    await net.close();
  });

  it('ends requests waiting for a first connection when the scan closes its connections', async () => {
    const net = createNet(config());
    const asked = Promise.allSettled([1, 2].map((i) => net.request(`https://mute.test:${mute.port}/${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await net.close();
    const settled = await Promise.race([asked, new Promise((resolve) => setTimeout(() => resolve('hung'), 2000))]);
    expect(settled).not.toBe('hung');
    await net.close();
  });

  it('keeps slots for HTTP requests while bare handshakes wait for a silent host', async () => {
    const net = createNet(config(), { concurrency: 3 });
    const giveUp = new AbortController();
    let handshakesSettled = false;
    const handshakes = Promise.allSettled(
      [1, 2, 3].map(() => net.tls('mute.test', { port: mute.port, signal: giveUp.signal })),
    ).then(() => (handshakesSettled = true));
    const answered = await net.request(`https://h1.test:${h1.port}/`);
    expect([answered.status, handshakesSettled]).toEqual([200, false]);
    giveUp.abort();
    await handshakes;
    await net.close();
  });

  it('stays with HTTP/1.1 for a host that does not offer h2', async () => {
    const net = createNet(config());
    const exchange = await net.request(`https://h1.test:${h1.port}/`);
    expect([exchange.httpVersion, exchange.body.toString()]).toEqual(['1.1', '1.1']);
    expect([exchange.headers.constructor, exchange.headers.__proto__]).toEqual([
      'a field name like any other',
      'this one too',
    ]);
    await net.close();
  });
});
