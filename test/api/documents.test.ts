// The published documents and response integrity: openapi.json valid by an OpenAPI validator and built from
// the schemas, the JWK set, the signed Web Bot Auth key directory, mcp.json, security.txt, and an RFC 9421
// signature with a Content-Digest on every response, verified with the http-message-signatures library.
import { createHash, createPublicKey } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createVerifier, httpbis } from 'http-message-signatures';
import { verify as wbaVerify } from 'http-message-sig';
import { calculateJwkThumbprint } from 'jose';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { apiSchema } from '../../src/api/operations/api-schemas.ts';
import { loadAgentKey, loadSigningKey } from '../../src/signing/keys.ts';

type Method = 'get' | 'post';
interface Operation {
  operationId: string;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}
/** The members of an OpenAPI document these tests read; the validator checks the whole document. */
interface OpenApiDoc {
  [member: string]: unknown;
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, { description?: string } & Partial<Record<Method, Operation>>>;
}

function operation(doc: OpenApiDoc, p: string, m: Method = 'post'): Operation {
  const op = doc.paths[p]?.[m];
  if (!op) throw new Error(`the document has no ${m} ${p}`);
  return op;
}
import { startApiWorld, startTestService, type ApiResponse, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;
const BASE = 'https://dvs.example.net';

beforeAll(async () => {
  world = await startApiWorld();
  svc = await startTestService({
    ...world.env,
    DVS_BASE_URL: BASE,
    DVS_SECURITY_CONTACT: 'mailto:security@example.net',
    DVS_SECURITY_POLICY: `${BASE}/docs/security`,
  });
});

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

type Jwk = { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string };
type Schema = Record<string, unknown>;

/** The schema a URI (a file's $id, with an optional #/$defs/ pointer) names in schemas/. */
function fileSchemaAt(uri: string): Schema {
  const [file, pointer] = uri.split('#');
  const names = [
    'certificate',
    'report',
    'scan-result',
    'error',
    'quickscan-request',
    'fullvalidation-request',
    'full-validation-result',
    'tree-head',
    'log-inclusion',
    'log-consistency',
  ];
  const schema = names.map((n) => apiSchema(n as 'report')).find((s) => s.$id === file);
  if (!schema) throw new Error(`no schema file ${file}`);
  if (!pointer) return schema;
  const def = (schema.$defs as Record<string, Schema>)[pointer.replace('/$defs/', '')];
  if (!def) throw new Error(`no ${uri}`);
  return { ...def, $id: file };
}

/** A schema with every $ref replaced by what it names, and the bookkeeping ($schema, $id, $defs) left out. */
function inline(node: unknown, lookup: (ref: string, base: string) => Schema, base = ''): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, lookup, base));
  if (node === null || typeof node !== 'object') return node;
  const here = typeof (node as Schema).$id === 'string' ? ((node as Schema).$id as string) : base;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node as Schema)) {
    if (k === '$ref') Object.assign(out, inline(lookup(v as string, here), lookup, here));
    else if (!['$schema', '$id', '$defs'].includes(k))
      out[k] = k === 'const' || k === 'enum' ? v : inline(v, lookup, here);
  }
  return out;
}

/** Verifies the response's sig1 the way docs/api.md tells a caller to: digest first, then the signature. */
async function verifyResponse(res: ApiResponse, jwks: { keys: Jwk[] }): Promise<boolean | null> {
  const digest = `sha-256=:${createHash('sha256').update(res.text, 'utf8').digest('base64')}:`;
  if (res.headers['content-digest'] !== digest) return false;
  return httpbis.verifyMessage(
    {
      requiredFields: ['@status', 'content-digest', 'content-type'],
      requiredParams: ['created', 'keyid'],
      keyLookup: async (params) => {
        const jwk = jwks.keys.find((k) => k.kid === params.keyid);
        if (!jwk) return null;
        const { kty, crv, x } = jwk;
        return {
          id: jwk.kid,
          algs: ['ed25519'],
          verify: createVerifier(createPublicKey({ key: { kty, crv, x }, format: 'jwk' }), 'ed25519'),
        };
      },
    },
    { status: res.status, headers: res.headers },
  );
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, served as the API catalog advertises it, with every status', async () => {
    const res = await svc.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const catalog = (await svc.call('GET', '/.well-known/api-catalog')).json() as {
      linkset: { 'service-desc': { href: string; type: string }[] }[];
    };
    const desc = catalog.linkset[0]!['service-desc'][0]!;
    expect(desc.href).toBe(`${BASE}/openapi.json`);
    expect(res.headers['content-type']).toBe(desc.type);
    const doc = res.json() as OpenApiDoc;
    const validator = new Validator();
    const verdict = await validator.validate(doc);
    expect(verdict.errors ?? null).toBeNull();
    expect(verdict.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: BASE }]);
    expect(operation(doc, '/api/quickscan').operationId).toBe('quickscan');
    expect(operation(doc, '/api/fullvalidation').operationId).toBe('fullvalidation');
    const statuses = (p: string, m: Method) => Object.keys(operation(doc, p, m).responses).sort();
    expect(statuses('/api/quickscan', 'post')).toEqual(['200', '400', '413', '415', '429', '500', '503', '504']);
    expect(statuses('/api/fullvalidation', 'post')).toEqual(['200', '400', '402', '413', '415', '500', '503', '504']);
    expect(statuses('/api/certificates/{id}', 'get')).toEqual(['200', '404', '500']);
    expect(statuses('/api/certificates/{id}/status', 'get')).toEqual(['200', '404', '500']);
    expect(statuses('/api/certificates/{id}/evidence', 'get')).toEqual(['200', '404', '410', '500']);
    expect(statuses('/mcp', 'post')).toEqual(['200', '202', '400', '403', '406', '413', '415', '500']);
    expect(statuses('/mcp', 'get')).toEqual(['403', '405']);
    for (const p of ['/api/quickscan', '/api/fullvalidation']) expect(doc.paths[p]?.description).toMatch(/405/);
    const full = operation(doc, '/api/fullvalidation').responses;
    for (const status of ['400', '402', '413', '415', '503', '504']) {
      expect(full[status]?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    const quick = operation(doc, '/api/quickscan').responses;
    expect(quick['429']?.headers?.['Retry-After']).toBeDefined();
    expect(quick['503']?.headers?.['Retry-After']).toBeDefined();
    expect(quick['415']?.headers?.['Accept-Encoding']).toBeDefined();
  });

  it('carries the schemas of schemas/ with every ref resolving from the document root, meaning the same', async () => {
    const doc = (await svc.call('GET', '/openapi.json')).json() as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const { schemas } = doc.components;
    const { $schema: _d, $id: _i, ...quick } = apiSchema('quickscan-request');
    expect(schemas.QuickScanRequest).toEqual(quick);
    const text = JSON.stringify(schemas);
    expect(text).not.toMatch(/"\$(id|defs|schema)"/);
    for (const [, target] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      expect(target).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(schemas[target!.split('/').pop()!], target).toBeDefined();
    }
    // Every schema, with its refs followed, is the schema file with its refs followed.
    for (const name of ['certificate', 'report', 'scan-result', 'error', 'log-inclusion', 'log-consistency'] as const) {
      const source = apiSchema(name);
      expect(inline(schemas[source.title as string]!, (ref) => schemas[ref.split('/').pop()!]!)).toEqual(
        inline(source, (ref, base) => fileSchemaAt(new URL(ref, base).href)),
      );
    }
  });

  it('lists 403 for a request over plain HTTP when the service runs behind a proxy', async () => {
    const proxied = await startTestService({ ...world.env, DVS_TRUST_PROXY: '1' });
    try {
      const doc = (
        await proxied.call('GET', '/openapi.json', { headers: { 'x-forwarded-proto': 'https' } })
      ).json() as OpenApiDoc;
      expect(operation(doc, '/api/quickscan').responses['403']).toBeDefined();
      expect((await new Validator().validate(doc)).valid).toBe(true);
    } finally {
      await proxied.stop();
    }
  });
});

describe('the well-known documents', () => {
  it('publishes the signing key in /.well-known/jwks.json', async () => {
    const res = await svc.call('GET', '/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/jwk-set+json');
    const key = await loadSigningKey(svc.dataDir);
    expect(res.json()).toEqual({ keys: [key.publicJwk] });
    expect((res.json() as { keys: Jwk[] }).keys[0]!.kid).toBe('service-signing-key-v1');
  });

  it('publishes the agent key in the Web Bot Auth directory, signed as the directory draft says', async () => {
    const res = await svc.call('GET', '/.well-known/http-message-signatures-directory');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/http-message-signatures-directory+json');
    const { keys } = res.json() as { keys: (Jwk & { nbf: number; exp: number })[] };
    const agent = await loadAgentKey(svc.dataDir);
    expect(keys).toHaveLength(1);
    const [key] = keys as [Jwk & { nbf: number; exp: number }];
    expect(key.x).toBe(agent.publicJwk.x);
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x }, 'sha256'));
    const nowS = Date.now() / 1000;
    expect(key.nbf).toBeLessThanOrEqual(nowS);
    expect(key.exp).toBeGreaterThan(nowS);
    expect(res.headers['signature-input']).toMatch(/tag="http-message-signatures-directory"/);

    const verified = await httpbis.verifyMessage(
      {
        requiredParams: ['created', 'expires', 'keyid', 'tag'],
        requiredFields: ['@authority'],
        keyLookup: async (params) => {
          if (params.tag !== 'http-message-signatures-directory') return null;
          const jwk = keys.find((k) => k.kid === params.keyid);
          return jwk
            ? {
                id: jwk.kid,
                algs: ['ed25519'],
                verify: createVerifier(
                  createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' }),
                  'ed25519',
                ),
              }
            : null;
        },
      },
      { status: res.status, headers: res.headers },
      { method: 'GET', url: `${svc.url}/.well-known/http-message-signatures-directory`, headers: {} },
    );
    expect(verified).toBe(true);
    // The signature binds the directory to the authority it was fetched from.
    const elsewhere = {
      method: 'GET',
      url: 'https://impostor.example/.well-known/http-message-signatures-directory',
      headers: {},
    };
    const moved = await httpbis.verifyMessage(
      {
        keyLookup: async () => ({
          id: key.kid,
          algs: ['ed25519'],
          verify: createVerifier(
            createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x }, format: 'jwk' }),
            'ed25519',
          ),
        }),
      },
      { status: res.status, headers: res.headers },
      elsewhere,
    );
    expect(moved).toBe(false);
  });

  it("signs the directory once, so Cloudflare's web-bot-auth stack (http-message-sig) verifies it too", async () => {
    const url = `${svc.url}/.well-known/http-message-signatures-directory`;
    const res = await svc.call('GET', '/.well-known/http-message-signatures-directory');
    const { keys } = res.json() as { keys: Jwk[] };
    // One signature, binding0, as web-bot-auth's own directoryResponseHeaders labels the first key's.
    expect(res.headers['signature-input']).toMatch(/^binding0=\("@authority";req\);/);
    expect(res.headers.signature).toMatch(/^binding0=:[A-Za-z0-9+/]+=*:$/);
    expect(res.headers['content-digest']).toMatch(/^sha-256=:/);
    const seen: Record<string, unknown>[] = [];
    await wbaVerify(
      { request: { method: 'GET', url, headers: {} }, response: { status: res.status, headers: res.headers } },
      async (data, signature, params) => {
        seen.push(params);
        const jwk = keys.find((k) => k.kid === params.keyid);
        if (!jwk || params.tag !== 'http-message-signatures-directory') throw new Error('not a directory signature');
        await (
          await verifierFromJWK(jwk)
        )(data, signature, params as never);
      },
    );
    expect(seen).toHaveLength(1);
    // The same verifier refuses the directory presented as fetched from another authority.
    await expect(
      wbaVerify(
        {
          request: { method: 'GET', url: 'https://impostor.example/.well-known/x', headers: {} },
          response: { status: res.status, headers: res.headers },
        },
        async (data, signature, params) => (await verifierFromJWK(keys[0]!))(data, signature, params as never),
      ),
    ).rejects.toThrow();
  });

  it('publishes the MCP manifest with the endpoint under the base URL and the tools', async () => {
    const res = await svc.call('GET', '/.well-known/mcp.json');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const manifest = res.json() as { version: string; tools: { name: string; inputSchema: { required: string[] } }[] };
    expect(manifest).toMatchObject({
      name: 'domain-validation-service',
      endpoint: `${BASE}/mcp`,
      transport: { type: 'streamable-http', endpoint: `${BASE}/mcp` },
      remotes: [{ type: 'streamable-http', url: `${BASE}/mcp` }],
      authentication: { type: 'none' },
    });
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.tools.map((t) => t.name)).toEqual(['service_quickscan', 'service_fullvalidation']);
    expect(manifest.tools[0]?.inputSchema.required).toEqual(['domain']);
  });

  it('publishes security.txt as RFC 9116 asks, with Expires ahead', async () => {
    const res = await svc.call('GET', '/.well-known/security.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const fields = Object.fromEntries(
      res.text
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
    );
    expect(fields).toMatchObject({
      Contact: 'mailto:security@example.net',
      Canonical: `${BASE}/.well-known/security.txt`,
      Policy: `${BASE}/docs/security`,
      'Preferred-Languages': 'en',
    });
    const expires = Date.parse(fields.Expires!);
    expect(expires).toBeGreaterThan(Date.now() + 30 * 86_400_000);
    expect(expires).toBeLessThan(Date.now() + 366 * 86_400_000);
  });
});

describe("the service's own agent-facing surface", () => {
  it('links its descriptions from the home page and serves the guides, robots.txt, llms.txt and the API catalog', async () => {
    const home = await svc.call('GET', '/');
    expect(home.status).toBe(200);
    expect(home.headers.link).toContain('</llms.txt>; rel="describedby"');
    expect(home.headers.link).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    const guide = await svc.call('GET', '/docs/api.md');
    expect(guide.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(guide.text).toMatch(/^# Domain Validation Service: API guide/);
    expect((await svc.call('GET', '/docs/operations')).text).toContain('DVS_QUICK_RATE_LIMIT');
    const robots = await svc.call('GET', '/robots.txt');
    expect(robots.text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    const llms = await svc.call('GET', '/llms.txt');
    expect(llms.text).toMatch(/^# Domain Validation Service\n\n> /);
    expect((await svc.call('GET', '/llms-full.txt')).text).toContain(guide.text);
    const catalog = await svc.call('GET', '/.well-known/api-catalog');
    expect(catalog.headers['content-type']).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(catalog.json()).toMatchObject({ linkset: [{ 'service-desc': [{ href: `${BASE}/openapi.json` }] }] });
  });
});

describe('response integrity', () => {
  it('signs results, errors and documents with the JWKS key, over the status, Content-Digest and Content-Type', async () => {
    const jwks = (await svc.call('GET', '/.well-known/jwks.json')).json() as { keys: Jwk[] };
    const responses = [
      await svc.post('/api/quickscan', { domain: 'nxdomain.test' }),
      await svc.post('/api/quickscan', { domain: 'https://good.test' }),
      await svc.post('/api/fullvalidation', { domain: 'good.test' }),
      await svc.call('GET', '/openapi.json'),
      await svc.call('GET', '/.well-known/security.txt'),
      await svc.call('GET', '/nowhere'),
    ];
    // The key directory carries its own signature alone (see the Web Bot Auth tests above), and its digest.
    const directory = await svc.call('GET', '/.well-known/http-message-signatures-directory');
    expect(directory.headers['signature-input']).not.toMatch(/sig1=/);
    expect(directory.headers['content-digest']).toBe(
      `sha-256=:${createHash('sha256').update(directory.text, 'utf8').digest('base64')}:`,
    );
    for (const res of responses) {
      expect(res.headers['signature-input'], res.text).toMatch(
        /sig1=\("@status" "content-digest" "content-type"\);created=\d+;keyid="service-signing-key-v1";alg="ed25519"/,
      );
      expect(await verifyResponse(res, jwks)).toBe(true);
    }
  });

  it('sends the Quick Scan in br or gzip as asked, digested as sent and signed with its coding', async () => {
    const jwks = (await svc.call('GET', '/.well-known/jwks.json')).json() as { keys: Jwk[] };
    const ask = async (acceptEncoding?: string) => {
      const res = await request(`${svc.url}/api/quickscan`, {
        method: 'POST',
        dispatcher: svc.agent,
        headers: {
          'content-type': 'application/json',
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        },
        body: JSON.stringify({ domain: 'good.test' }),
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
      return { status: res.statusCode, headers, bytes };
    };
    const plain = await ask();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const coded = [
      { res: await ask('gzip, deflate, br'), coding: 'br', decode: brotliDecompressSync },
      { res: await ask('gzip'), coding: 'gzip', decode: gunzipSync },
      { res: await ask('br;q=0.5, gzip;q=0.9'), coding: 'gzip', decode: gunzipSync },
    ];
    for (const { res, coding, decode } of [...coded, { res: plain, coding: undefined, decode: (b: Buffer) => b }]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      // The digest is over the content as sent (RFC 9530), coded; decoded, it is the plain answer.
      expect(res.headers['content-digest']).toBe(
        `sha-256=:${createHash('sha256').update(res.bytes).digest('base64')}:`,
      );
      expect(decode(res.bytes).equals(plain.bytes)).toBe(true);
      const required = ['@status', 'content-digest', 'content-type', ...(coding ? ['content-encoding'] : [])];
      const verify = (headers: Record<string, string>) =>
        httpbis.verifyMessage(
          {
            requiredFields: required,
            requiredParams: ['created', 'keyid'],
            keyLookup: async (params) => {
              const { kty, crv, x, kid } = jwks.keys.find((k) => k.kid === params.keyid)!;
              return {
                id: kid,
                algs: ['ed25519'],
                verify: createVerifier(createPublicKey({ key: { kty, crv, x }, format: 'jwk' }), 'ed25519'),
              };
            },
          },
          { status: res.status, headers },
        );
      expect(await verify(res.headers)).toBe(true);
      if (coding) {
        // Relabelling the coding breaks the signature, as does passing off the decoded bytes under the same digest.
        expect(await verify({ ...res.headers, 'content-encoding': coding === 'br' ? 'gzip' : 'br' })).toBe(false);
        expect(plain.headers['content-digest']).not.toBe(res.headers['content-digest']);
      }
    }
    expect(coded[0]!.res.bytes.length).toBeLessThan(plain.bytes.length / 4);
  });

  it('does not verify when the body, the status or the content type was altered', async () => {
    const jwks = (await svc.call('GET', '/.well-known/jwks.json')).json() as { keys: Jwk[] };
    const res = await svc.post('/api/quickscan', { domain: 'nxdomain.test' });
    expect(await verifyResponse({ ...res, text: res.text.replace('NXDOMAIN', 'NOERROR') }, jwks)).toBe(false);
    expect(await verifyResponse({ ...res, status: 201 }, jwks)).toBe(false);
    expect(await verifyResponse({ ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }, jwks)).toBe(
      false,
    );
  });
});
