import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { X509Certificate, createPublicKey } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import canonicalize from 'canonicalize';
import { httpbis, createVerifier, type SignatureParameters } from 'http-message-signatures';
import { calculateJwkThumbprint, flattenedVerify, importJWK, type JWK } from 'jose';
import { JSONRPCResultResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { keyFromSeed } from '../../src/signing/keys.ts';
import { createWebBotAuthSigner } from '../../src/net/web-bot-auth.ts';
import { startWorld, type World } from './index.ts';
import { fetchSite, type FetchOptions } from './https-client.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sites');

let fixtures: World;
const agent = await keyFromSeed('agent-key', new Uint8Array(32).fill(7), '2025-01-01T00:00:00Z');
const stranger = await keyFromSeed('agent-key', new Uint8Array(32).fill(9), '2025-01-01T00:00:00Z');

beforeAll(async () => {
  fixtures = await startWorld({ sitesDir: FIXTURES, trustedAgentKeys: [agent.publicJwk] });
});
afterAll(async () => {
  await fixtures?.stop();
});

/** GET from a fixture site by site name over HTTPS, trusting the world CA unless told otherwise. */
function get(siteName: string, pathname = '/', extra: Partial<FetchOptions> = {}) {
  const site = fixtures.sites.find((s) => s.name === siteName)!;
  const scheme = extra.scheme ?? 'https';
  return fetchSite({
    address: site.address,
    port: scheme === 'https' ? fixtures.httpsPort : fixtures.httpPort,
    host: site.domain,
    path: pathname,
    ca: fixtures.caPem,
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
    const r = await get('basic');
    expect(r.status).toBe(200);
    expect(r.peer!.subjectaltname).toBe('DNS:basic.test, DNS:www.basic.test, DNS:basic-alias.test');
    expect(r.peer!.issuerCertificate.subject.CN).toBe('DVS World Test Intermediate CA');
    const leaf = new X509Certificate(r.peer!.raw);
    expect(Date.parse(leaf.validTo)).toBeGreaterThan(Date.now());
    expect(Date.parse(leaf.validFrom)).toBeLessThan(Date.now());
  });

  it('serves the alias with the same certificate', async () => {
    const r = await get('basic', '/', { host: 'basic-alias.test' });
    expect([r.status, r.peer!.subjectaltname]).toEqual([
      200,
      'DNS:basic.test, DNS:www.basic.test, DNS:basic-alias.test',
    ]);
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

  it('keeps to the site TLS versions: 1.3 on basic, 1.0/1.1 only on legacy', async () => {
    expect((await get('basic')).protocol).toBe('TLSv1.3');
    expect(
      await tlsError('basic', { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
    ).not.toBe('no error');
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

  it('answers route redirects, statuses, bodies, files and extra headers', async () => {
    const old = await get('basic', '/old');
    expect([old.status, old.headers.location]).toEqual([301, '/new']);
    const temp = await get('basic', '/temp');
    expect([temp.status, temp.headers.location]).toEqual([307, 'https://elsewhere.test/']);
    const manual = await get('basic', '/manual');
    expect([manual.status, manual.headers.location, manual.body.length]).toEqual([302, '/target', 0]);
    const teapot = await get('basic', '/teapot');
    expect([teapot.status, teapot.headers['x-route'], teapot.headers['content-type']]).toEqual([
      418,
      'teapot',
      'text/x-teapot',
    ]);
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
    expect(await tlsError('basic', { path: '/slow', timeoutMs: 300 })).toBe('TIMEOUT');
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
    expect(
      (await get('basic', '/hello.txt', { headers: { 'accept-encoding': 'gzip;q=0' } })).headers['content-encoding'],
    ).toBeUndefined();
    expect((await get('basic', '/hello.txt')).headers['content-encoding']).toBeUndefined();
    expect(
      (await get('soft404', '/', { headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding'],
    ).toBeUndefined();
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
    return fetchSite({
      address: site.address,
      port: fixtures.httpsPort,
      host: 'botauth.test',
      headers: { ...headers, host: authority },
      ca: fixtures.caPem,
    });
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

describe('canonical host', () => {
  it('redirects the other names to the canonical one on HTTPS and on plain HTTP, keeping path and query', async () => {
    const https = await get('canonical', '/a?b=c');
    expect([https.status, https.headers.location]).toEqual([
      308,
      `https://www.canonical.test:${fixtures.httpsPort}/a?b=c`,
    ]);
    const plain = await get('canonical', '/a?b=c', { scheme: 'http' });
    expect([plain.status, plain.headers.location]).toEqual([
      308,
      `http://www.canonical.test:${fixtures.httpPort}/a?b=c`,
    ]);
    const www = await get('canonical', '/', { host: 'www.canonical.test' });
    expect([www.status, www.body.toString().trim()]).toEqual([200, 'canonical home']);
  });

  it('upgrades plain HTTP on the same host first when the site redirects to HTTPS', async () => {
    const first = await get('redirector', '/p', { scheme: 'http', host: 'www.redirector.test' });
    expect(first.headers.location).toBe(`https://www.redirector.test:${fixtures.httpsPort}/p`);
    const second = await get('redirector', '/p', { host: 'www.redirector.test' });
    expect([second.status, second.headers.location]).toEqual([301, `https://redirector.test:${fixtures.httpsPort}/p`]);
    expect((await get('redirector', '/p')).status).toBe(404);
  });
});

describe('IPv6: the ipv6 sites share [::1]', () => {
  const onV6 = (host: string, extra: Partial<FetchOptions> = {}) =>
    fetchSite({
      address: '::1',
      port: extra.scheme === 'http' ? fixtures.httpPort : fixtures.httpsPort,
      host,
      ca: fixtures.caPem,
      ...extra,
    });

  it('chooses the site and its certificate by SNI', async () => {
    const basic = await onV6('www.basic.test');
    expect([basic.status, basic.headers['x-site'], basic.peer!.subject.CN]).toEqual([200, 'basic', 'basic.test']);
    const canonical = await onV6('canonical.test');
    expect([canonical.status, canonical.peer!.subject.CN]).toEqual([308, 'canonical.test']);
  });

  it('keeps each site TLS settings', async () => {
    const legacy = await onV6('legacy.test', { minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' });
    expect(legacy.protocol).toBe('TLSv1.1');
    expect((await onV6('basic.test')).protocol).toBe('TLSv1.3');
  });

  it('closes connections whose SNI names no ipv6 site', async () => {
    await expect(onV6('redirector.test')).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('chooses the plain-HTTP site by Host, and answers 421 to an unknown one', async () => {
    const r = await onV6('basic.test', { scheme: 'http', path: '/hello.txt' });
    expect([r.status, r.headers['x-plain']]).toEqual([200, 'yes']);
    expect((await onV6('nobody.test', { scheme: 'http' })).status).toBe(421);
  });
});

describe('content negotiation', () => {
  const page = (accept?: string, extra: Partial<FetchOptions> = {}) =>
    get('agent', '/page', { ...extra, headers: { ...(accept === undefined ? {} : { accept }), ...extra.headers } });

  it('serves the default representation to browsers and clients that send no Accept, with Vary: Accept', async () => {
    for (const accept of [undefined, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', '*/*']) {
      const r = await page(accept);
      expect([r.status, r.headers['content-type'], r.headers.vary, r.headers['x-route']]).toEqual([
        200,
        'text/html; charset=utf-8',
        'accept',
        'page',
      ]);
    }
  });

  it('serves the variant the Accept header prefers, with its own headers', async () => {
    const md = await page('text/markdown');
    expect([md.headers['content-type'], md.body.toString(), md.headers.vary, md.headers['x-route']]).toEqual([
      'text/markdown; charset=utf-8',
      '# The page\n',
      'accept',
      'page',
    ]);
    const plain = await page('text/markdown;q=0.4, text/plain;q=0.5');
    expect([plain.headers['content-type'], plain.headers['x-variant']]).toEqual(['text/plain; charset=utf-8', 'plain']);
  });

  it('adds accept-encoding to Vary when it compresses a variant', async () => {
    const r = await page('text/markdown', { headers: { 'accept-encoding': 'gzip' } });
    expect([r.headers.vary, gunzipSync(r.body).toString()]).toEqual(['accept, accept-encoding', '# The page\n']);
  });
});

describe('an MCP route', () => {
  const rpc = (pathname: string, message: object, headers: Record<string, string> = {}) =>
    get('agent', pathname, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
  const initialize = {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('answers initialize, tools/list and tools/call as JSON, without a session', async () => {
    const init = await rpc('/mcp', initialize);
    expect([init.status, init.headers['content-type'], init.headers['mcp-session-id']]).toEqual([
      200,
      'application/json',
      undefined,
    ]);
    expect(JSON.parse(init.body.toString())).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'agent-test', version: '2.0.0' }, capabilities: { tools: {} } },
    });
    const list = JSONRPCResultResponseSchema.parse(
      JSON.parse(
        (await rpc('/mcp', { id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' })).body.toString(),
      ),
    );
    expect(list.result.tools).toEqual([
      {
        name: 'echo',
        description: 'Answers with a fixed text',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ]);
    const call = JSONRPCResultResponseSchema.parse(
      JSON.parse(
        (await rpc('/mcp', { id: 3, method: 'tools/call', params: { name: 'echo', arguments: {} } })).body.toString(),
      ),
    );
    expect(call.result.content).toEqual([{ type: 'text', text: 'fixed text' }]);
  });

  it('answers as an SSE stream with the route headers when the route asks for it', async () => {
    const r = await rpc('/mcp-sse', initialize);
    expect([r.status, r.headers['content-type'], r.headers['x-route']]).toEqual([200, 'text/event-stream', 'mcp-sse']);
    const data = /^data: (.+)$/m.exec(r.body.toString())![1]!;
    expect(JSON.parse(data)).toMatchObject({ id: 1, result: { serverInfo: { name: 'agent-test-sse' } } });
  });

  it('answers GET with 405 and a JSON-RPC error to a body that is not JSON', async () => {
    const r = await get('agent', '/mcp');
    expect([r.status, r.headers.allow]).toEqual([405, 'POST']);
    const bad = await get('agent', '/mcp', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    // JSON-RPC 2.0 section 5: a parse error's id is null (the SDK's response schema wants a request's id).
    const body = JSON.parse(bad.body.toString()) as { id: unknown; error: { code: number } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });
});

describe('a signed key directory', () => {
  const directory = '/.well-known/http-message-signatures-directory';
  const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' } as const;

  async function verifyDirectory(authority: string, r: Awaited<ReturnType<typeof get>>) {
    const keyid = await calculateJwkThumbprint(publicJwk);
    const seen: SignatureParameters[] = [];
    const verified = await httpbis.verifyMessage(
      {
        requiredFields: ['@authority'],
        keyLookup: async (params) => {
          seen.push(params);
          return params.keyid === keyid
            ? {
                id: keyid,
                algs: ['ed25519'],
                verify: createVerifier(createPublicKey({ key: publicJwk, format: 'jwk' }), 'ed25519'),
              }
            : null;
        },
      },
      { status: r.status, headers: r.headers as Record<string, string> },
      { method: 'GET', url: `https://${authority}${directory}`, headers: { host: authority } },
    );
    return { verified, seen };
  }

  it('signs the response with the listed key over the authority the client asked for', async () => {
    const authority = `agent.test:${fixtures.httpsPort}`;
    const r = await get('agent', directory, { headers: { host: authority } });
    expect(r.headers['signature-input']).toMatch(/^binding0=\("@authority";req\);/);
    const { verified, seen } = await verifyDirectory(authority, r);
    expect(verified).toBe(true);
    expect(seen[0]).toMatchObject({
      tag: 'http-message-signatures-directory',
      keyid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
      alg: 'ed25519',
    });
    const param = (name: string) =>
      Number(new RegExp(`;${name}=(\\d+)`).exec(String(r.headers['signature-input']))![1]);
    expect(param('expires') - param('created')).toBe(300);
  });

  it('does not verify for another origin', async () => {
    const r = await get('agent', directory, { headers: { host: `agent.test:${fixtures.httpsPort}` } });
    expect((await verifyDirectory(`elsewhere.test:${fixtures.httpsPort}`, r)).verified).toBe(false);
  });
});

describe('signed A2A agent cards', () => {
  const KEY: JWK = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };

  /** The served card's one signature, verified over the RFC 8785 form of the card as served without `signatures`. */
  async function verifyCard(pathname: string) {
    const r = await get('agent', pathname);
    const { signatures, ...card } = JSON.parse(r.body.toString('utf8')) as {
      signatures: { protected: string; signature: string }[];
    };
    const payload = Buffer.from(canonicalize(card)!).toString('base64url');
    const key = await importJWK(KEY, 'EdDSA');
    return { card, signatures, verify: () => flattenedVerify({ ...signatures[0]!, payload }, key) };
  }

  it('signs the card for the serving site, replacing the signatures the file holds', async () => {
    const { card, signatures, verify } = await verifyCard('/.well-known/agent-card.json');
    expect(card).toMatchObject({ name: 'Agent of agent.test' });
    expect(signatures).toHaveLength(1);
    const { protectedHeader } = await verify();
    expect(protectedHeader).toEqual({
      alg: 'EdDSA',
      typ: 'JOSE',
      kid: await calculateJwkThumbprint(KEY),
      jku: 'https://agent.test/.well-known/jwks.json',
    });
  });

  it('serves a card altered after signing, which no longer verifies', async () => {
    const { card, verify } = await verifyCard('/altered/agent-card.json');
    expect(card).toMatchObject({ name: 'Someone else' });
    await expect(verify()).rejects.toThrow('signature verification failed');
  });
});
