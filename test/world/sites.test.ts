import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { keyFromSeed } from '../../src/signing/keys.ts';
import { createWebBotAuthSigner } from '../../src/net/web-bot-auth.ts';
import { startWorld, type World } from './index.ts';
import { fetchSite, type FetchOptions } from './https-client.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sites');

let world: World;
let fixtures: World;
const agent = await keyFromSeed('agent-key', new Uint8Array(32).fill(7), '2025-01-01T00:00:00Z');
const stranger = await keyFromSeed('agent-key', new Uint8Array(32).fill(9), '2025-01-01T00:00:00Z');

beforeAll(async () => {
  [world, fixtures] = await Promise.all([startWorld(), startWorld({ sitesDir: FIXTURES, trustedAgentKeys: [agent.publicJwk] })]);
});
afterAll(async () => {
  await Promise.all([world?.stop(), fixtures?.stop()]);
});

/** GET from a fixture site by site name over HTTPS, trusting the world CA unless told otherwise. */
function get(siteName: string, pathname = '/', extra: Partial<FetchOptions> = {}, w = fixtures) {
  const site = w.sites.find((s) => s.name === siteName)!;
  const scheme = extra.scheme ?? 'https';
  return fetchSite({
    address: site.address,
    port: scheme === 'https' ? w.httpsPort : w.httpPort,
    host: site.domain,
    path: pathname,
    ca: w.caPem,
    ...extra,
  });
}

async function tlsError(siteName: string, extra: Partial<FetchOptions> = {}): Promise<string> {
  try {
    await get(siteName, '/', extra);
    return 'no error';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
}

describe('HTTPS and the test CA', () => {
  it('serves a valid chain (leaf and intermediate) that node:https accepts with the world CA', async () => {
    const r = await get('good', '/', {}, world);
    expect(r.status).toBe(200);
    expect(r.peer!.subjectaltname).toBe('DNS:good.test, DNS:www.good.test');
    expect(r.peer!.issuerCertificate.subject.CN).toBe('DVS World Test Intermediate CA');
    const leaf = new X509Certificate(r.peer!.raw);
    expect(Date.parse(leaf.validTo)).toBeGreaterThan(Date.now());
    expect(Date.parse(leaf.validFrom)).toBeLessThan(Date.now());
  });

  it('serves the alias with the same certificate', async () => {
    expect((await get('good', '/', { host: 'www.good.test' }, world)).status).toBe(200);
  });

  it('is not trusted without the world CA', async () => {
    expect(await tlsError('basic', { ca: undefined })).toBe('UNABLE_TO_GET_ISSUER_CERT_LOCALLY');
  });

  it.each([
    ['cert-expired', 'CERT_HAS_EXPIRED'],
    ['cert-not-yet-valid', 'CERT_NOT_YET_VALID'],
    ['cert-wrong-name', 'ERR_TLS_CERT_ALTNAME_INVALID'],
    ['cert-self-signed', 'DEPTH_ZERO_SELF_SIGNED_CERT'],
    ['cert-leaf-only', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
  ])('%s fails validation with %s', async (site, code) => {
    expect(await tlsError(site)).toBe(code);
  });

  it('uses an RSA-2048 key when the site asks for one', async () => {
    const r = await get('rsa');
    expect(r.peer!.bits).toBe(2048);
    expect(r.peer!.modulus).toBeTruthy();
  });

  it('keeps to the site TLS versions: 1.3 on good, 1.0/1.1 only on legacy', async () => {
    expect((await get('good', '/', {}, world)).protocol).toBe('TLSv1.3');
    expect(await tlsError('good', { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })).not.toBe('no error');
    const legacy = await get('legacy', '/', { minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' });
    expect(legacy.protocol).toBe('TLSv1.1');
    expect(await tlsError('legacy', { minVersion: 'TLSv1.2' })).not.toBe('no error');
  });
});

describe('plain HTTP', () => {
  it('redirects every path to HTTPS with the site status, keeping host, path and query', async () => {
    const r = await get('redirector', '/a/b?c=d', { scheme: 'http', host: 'www.redirector.test' });
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe(`https://www.redirector.test:${fixtures.httpsPort}/a/b?c=d`);
    const good = await get('good', '/', { scheme: 'http' }, world);
    expect([good.status, good.headers.location]).toEqual([301, `https://good.test:${world.httpsPort}/`]);
  });

  it('serves files with the http headers (not the HTTPS ones) when the site does not redirect', async () => {
    const r = await get('basic', '/hello.txt', { scheme: 'http' });
    expect(r.status).toBe(200);
    expect(r.headers['x-plain']).toBe('yes');
    expect(r.headers['x-site']).toBeUndefined();
  });

  it('does not listen where the site has no http section', async () => {
    expect(await tlsError('soft404', { scheme: 'http' })).toBe('ECONNREFUSED');
  });
});

describe('files, headers and routes', () => {
  it('serves files with their content types and the site headers on every response', async () => {
    const types: [string, string][] = [
      ['/', 'text/html; charset=utf-8'],
      ['/hello.txt', 'text/plain; charset=utf-8'],
      ['/data.json', 'application/json'],
      ['/feed.xml', 'application/xml'],
      ['/notes.md', 'text/markdown; charset=utf-8'],
      ['/blob.bin', 'application/octet-stream'],
      ['/dir/', 'text/html; charset=utf-8'],
    ];
    for (const [p, type] of types) {
      const r = await get('basic', p);
      expect([p, r.status, r.headers['content-type']]).toEqual([p, 200, type]);
      expect(r.headers['x-site']).toBe('basic');
    }
    const r = await get('basic', '/');
    expect(r.headers['x-number']).toBe('42');
    expect(r.body.toString()).toContain('basic index');
    expect((await get('basic', '/missing')).headers['x-site']).toBe('basic');
  });

  it('answers HEAD without a body', async () => {
    const r = await get('basic', '/hello.txt', { method: 'HEAD' });
    expect([r.status, r.body.length, r.headers['content-length']]).toEqual([200, 0, '600']);
  });

  it('serves good.test with the security headers and a security.txt that has not expired', async () => {
    const r = await get('good', '/.well-known/security.txt', {}, world);
    expect(r.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
    const expires = /^Expires: (.+)$/m.exec(r.body.toString())![1]!;
    expect(Date.parse(expires)).toBeGreaterThan(Date.now());
    for (const file of ['/robots.txt', '/sitemap.xml', '/llms.txt', '/about.md']) expect((await get('good', file, {}, world)).status).toBe(200);
  });

  it('answers route redirects, statuses, bodies, files and extra headers', async () => {
    const old = await get('basic', '/old');
    expect([old.status, old.headers.location]).toEqual([301, '/new']);
    const temp = await get('basic', '/temp');
    expect([temp.status, temp.headers.location]).toEqual([307, 'https://elsewhere.test/']);
    const manual = await get('basic', '/manual');
    expect([manual.status, manual.headers.location, manual.body.length]).toEqual([302, '/target', 0]);
    const teapot = await get('basic', '/teapot');
    expect([teapot.status, teapot.headers['x-route'], teapot.headers['content-type']]).toEqual([418, 'teapot', 'text/x-teapot']);
    expect(teapot.body.toString()).toMatch(/^short and stout \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const data = await get('basic', '/data');
    expect([data.headers['content-type'], data.body.toString().trim()]).toEqual(['application/json', '{"ok": true}']);
    const hello = await get('basic', '/hello.txt');
    expect([hello.status, hello.headers['cache-control'], hello.headers['x-site']]).toEqual([200, 'no-store', 'basic']);
  });

  it('repeats a header given as a list', async () => {
    expect((await get('basic', '/')).headers['x-multi']).toBe('one, two');
  });

  it('answers 404 for unknown paths and paths that climb out of files/', async () => {
    const r = await get('basic', '/nothing-here');
    expect([r.status, r.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect((await get('basic', '/../site.yaml')).status).toBe(404);
    expect((await get('basic', '/%2e%2e/site.yaml')).status).toBe(404);
  });

  it('uses the site 404.html when it has one', async () => {
    const r = await get('custom404', '/nothing');
    expect([r.status, r.body.toString().trim()]).toEqual([404, 'our own not-found page']);
  });

  it('answers every unknown path with the home page on a catch_all site', async () => {
    const r = await get('soft404', '/does/not/exist');
    expect([r.status, r.body.toString().trim()]).toEqual([200, 'soft404 home']);
  });
});

describe('delays and big bodies', () => {
  it('holds a delayed route and a delayed site past a client timeout, and answers other paths at once', async () => {
    expect(await tlsError('basic', { path: '/slow', timeoutMs: 300 } as Partial<FetchOptions>)).toBe('TIMEOUT');
    expect(await tlsError('slow-site', { timeoutMs: 300 })).toBe('TIMEOUT');
    expect((await get('basic', '/hello.txt', { timeoutMs: 300 })).status).toBe(200);
  });

  it('streams generate_bytes with its exact length', async () => {
    const r = await get('basic', '/big');
    expect([r.headers['content-length'], r.body.length]).toEqual(['3000000', 3_000_000]);
  });

  it('streams a body far larger than memory without buffering it', async () => {
    const r = await get('basic', '/endless', { maxBytes: 1_000_000 });
    expect(r.headers['content-length']).toBe('100000000000');
    expect(r.body.length).toBeGreaterThanOrEqual(1_000_000);
  });
});

describe('compression', () => {
  it('gzips when the client accepts it and the site enables it', async () => {
    const plain = await get('basic', '/hello.txt');
    const r = await get('basic', '/hello.txt', { headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    expect([r.headers['content-encoding'], r.headers.vary]).toEqual(['gzip', 'accept-encoding']);
    expect(gunzipSync(r.body)).toEqual(plain.body);
    expect(Number(r.headers['content-length'])).toBeLessThan(plain.body.length);
  });

  it('does not gzip when the client refuses it or the site does not enable it', async () => {
    expect((await get('basic', '/hello.txt', { headers: { 'accept-encoding': 'gzip;q=0' } })).headers['content-encoding']).toBeUndefined();
    expect((await get('basic', '/hello.txt')).headers['content-encoding']).toBeUndefined();
    expect((await get('soft404', '/', { headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding']).toBeUndefined();
  });

  it('gzips a generated stream on the fly', async () => {
    const r = await get('basic', '/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers['content-length']).toBeUndefined();
    expect(gunzipSync(r.body).length).toBe(3_000_000);
  });
});

describe('Web Bot Auth', () => {
  async function signed(key: typeof agent) {
    const site = fixtures.sites.find((s) => s.name === 'botauth')!;
    const authority = `botauth.test:${fixtures.httpsPort}`;
    const sign = createWebBotAuthSigner(key, 'https://agent.test/.well-known/http-message-signatures-directory');
    const headers = await sign({ method: 'GET', url: `https://${authority}/`, headers: {} });
    return fetchSite({ address: site.address, port: fixtures.httpsPort, host: 'botauth.test', headers: { ...headers, host: authority }, ca: fixtures.caPem });
  }

  it('answers 401 to a request without a signature', async () => {
    const r = await get('botauth');
    expect(r.status).toBe(401);
  });

  it('serves a request signed with a trusted agent key', async () => {
    const r = await signed(agent);
    expect([r.status, r.body.toString().trim()]).toEqual([200, 'members only']);
  });

  it('answers 401 to a valid signature from a key it does not trust', async () => {
    expect((await signed(stranger)).status).toBe(401);
  });
});
