// Issue 13 item 2: behind trusted proxies the client is the rightmost address the proxies did not add
// themselves, never what the client wrote at the left of X-Forwarded-For or Forwarded; the protocol is read from
// the same hop. The proxy is simulated by the headers a test sends from 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/http/app.ts';
import { clientHop, nodeAddress } from '../../src/api/http/forwarded-client.ts';
import { loadConfig, type ProxyTrust } from '../../src/lib/config.ts';
import { createLogger } from '../../src/lib/log.ts';

const servers: http.Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A plain-HTTP app with the proxy settings of `env`, echoing the client it found. */
async function appWith(env: Record<string, string>): Promise<(headers: Record<string, string>) => Promise<Echo>> {
  const router = new Router();
  router.get('/who', (ctx) => {
    ctx.body = { ip: ctx.ip, proto: ctx.state.forwardedProto as string };
  });
  const app = createApp({
    baseUrl: 'https://dvs.example.net',
    trustProxy: loadConfig(env).trustProxy,
    log: createLogger({ logLevel: 'silent' }),
    routers: [router],
  });
  const handle = app.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return async (headers) => {
    const res = await fetch(`http://127.0.0.1:${port}/who`, { headers });
    const body = (await res.json()) as { ip?: string; proto?: string; error?: string };
    return { status: res.status, ...body };
  };
}

interface Echo {
  status: number;
  ip?: string;
  proto?: string;
  error?: string;
}

describe('DVS_TRUST_PROXY', () => {
  it('reads off, a hop count, true as one hop, or the proxies’ addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBeNull();
    expect(loadConfig({ DVS_TRUST_PROXY: '0' }).trustProxy).toBeNull();
    expect(loadConfig({ DVS_TRUST_PROXY: '2' }).trustProxy).toEqual({ header: 'x-forwarded', hops: 2, networks: [] });
    expect(loadConfig({ DVS_TRUST_PROXY: 'true' }).trustProxy).toMatchObject({ hops: 1 });
    expect(
      loadConfig({ DVS_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7, ::1', DVS_TRUST_PROXY_HEADER: 'Forwarded' }).trustProxy,
    ).toEqual({ header: 'forwarded', hops: null, networks: ['10.0.0.0/8', '192.0.2.7/32', '::1/128'] });
    expect(() => loadConfig({ DVS_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/DVS_TRUST_PROXY/);
    expect(() => loadConfig({ DVS_TRUST_PROXY: 'proxy.internal' })).toThrow(/DVS_TRUST_PROXY/);
    expect(() => loadConfig({ DVS_TRUST_PROXY: '1', DVS_TRUST_PROXY_HEADER: 'x-real-ip' })).toThrow(
      /DVS_TRUST_PROXY_HEADER/,
    );
  });
});

describe('the client behind a hop count', () => {
  it('is the address the one trusted proxy appended, whatever the client wrote to its left', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '1' });
    expect(await who({ 'x-forwarded-for': '203.0.113.7' })).toMatchObject({ ip: '203.0.113.7', proto: 'https' });
    expect(await who({ 'x-forwarded-for': '1.1.1.1, 2.2.2.2, 203.0.113.7' })).toMatchObject({ ip: '203.0.113.7' });
    // No header at all: the proxy did not say, so the peer is the client.
    expect(await who({})).toMatchObject({ ip: '127.0.0.1' });
  });

  it('counts two hops from the right with two proxies, and stops at the leftmost entry', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '2' });
    expect(await who({ 'x-forwarded-for': '9.9.9.9, 203.0.113.7, 10.0.0.2' })).toMatchObject({ ip: '203.0.113.7' });
    expect(await who({ 'x-forwarded-for': '10.0.0.2' })).toMatchObject({ ip: '10.0.0.2' });
  });

  it('reads X-Forwarded-Proto from the same hop, so a client cannot claim https itself', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '1' });
    const spoofed = await who({ 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https, http' });
    expect(spoofed.status).toBe(403);
    expect(spoofed.error).toMatch(/HTTPS only/);
    expect(await who({ 'x-forwarded-proto': 'http' })).toMatchObject({ status: 403 });
    const real = await who({ 'x-forwarded-for': '1.1.1.1, 203.0.113.7', 'x-forwarded-proto': 'http, HTTPS' });
    expect(real).toMatchObject({ status: 200, ip: '203.0.113.7', proto: 'https' });
  });
});

describe('the client behind trusted networks', () => {
  it('is the rightmost address outside them', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '127.0.0.0/8, 10.0.0.0/8, 2001:db8::/32' });
    const chain = '198.51.100.1, 203.0.113.7, 10.1.1.1, 2001:db8::5';
    expect(await who({ 'x-forwarded-for': chain })).toMatchObject({ ip: '203.0.113.7' });
    // Every hop trusted: the leftmost is the client.
    expect(await who({ 'x-forwarded-for': '10.9.9.9, 10.1.1.1' })).toMatchObject({ ip: '10.9.9.9' });
  });

  it('ignores the headers of a peer that is not a trusted proxy', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '10.0.0.0/8' });
    expect(await who({ 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'http' })).toMatchObject({
      status: 200,
      ip: '127.0.0.1',
      proto: 'https',
    });
  });
});

describe('the Forwarded header (RFC 7239)', () => {
  it('reads the examples of RFC 7239 section 4 and 7.4 from the right', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '1', DVS_TRUST_PROXY_HEADER: 'forwarded' });
    // Section 4, verbatim.
    expect(await who({ forwarded: 'for="_gazonk"' })).toMatchObject({ ip: '127.0.0.1' });
    expect(await who({ forwarded: 'For="[2001:db8:cafe::17]:4711"' })).toMatchObject({ ip: '2001:db8:cafe::17' });
    expect(await who({ forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' })).toMatchObject({ status: 403 });
    expect(await who({ forwarded: 'for=192.0.2.43, for=198.51.100.17' })).toMatchObject({ ip: '198.51.100.17' });
    // Section 7.4: an element added by each proxy; the client's own leftmost claim is passed over.
    const chain = 'for=192.0.2.43;proto=https, for="[2001:db8:cafe::17]";proto=https';
    expect(await who({ forwarded: chain })).toMatchObject({ ip: '2001:db8:cafe::17', proto: 'https' });
  });

  it('ignores X-Forwarded-For when the proxies write Forwarded, and refuses a malformed Forwarded with 400', async () => {
    const who = await appWith({ DVS_TRUST_PROXY: '1', DVS_TRUST_PROXY_HEADER: 'forwarded' });
    expect(await who({ 'x-forwarded-for': '203.0.113.7', forwarded: 'for=198.51.100.17' })).toMatchObject({
      ip: '198.51.100.17',
    });
    const bad = await who({ forwarded: 'for="192.0.2.43' });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatch(/Forwarded header is malformed/);
  });
});

describe('clientHop and nodeAddress', () => {
  const hop = (address: string | null) => ({ address, proto: null });
  it('walks from the right', () => {
    const chain = [hop('1.1.1.1'), hop('203.0.113.7'), hop('10.0.0.1')];
    const byHops = (hops: number): Pick<ProxyTrust, 'hops' | 'networks'> => ({ hops, networks: [] });
    expect(clientHop(chain, byHops(1)).address).toBe('203.0.113.7');
    expect(clientHop(chain, byHops(5)).address).toBe('1.1.1.1');
    expect(clientHop(chain, { hops: null, networks: ['10.0.0.0/8'] }).address).toBe('203.0.113.7');
    expect(clientHop([hop(null), hop('10.0.0.1')], { hops: null, networks: ['10.0.0.0/8'] }).address).toBeNull();
  });

  it('takes the address out of the node forms proxies write', () => {
    expect(nodeAddress('192.0.2.1:8080')).toBe('192.0.2.1');
    expect(nodeAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(nodeAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(nodeAddress('unknown')).toBeNull();
    expect(nodeAddress('_hidden')).toBeNull();
    expect(nodeAddress('')).toBeNull();
  });
});
