import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { verify as wbaVerify, signatureHeaders } from 'web-bot-auth';
import { verifierFromJWK, signerFromJWK } from 'web-bot-auth/crypto';
import { keyFromSeed, type SigningKey } from '../../src/signing/keys.ts';
import { createWebBotAuthSigner } from '../../src/net/web-bot-auth.ts';
import { verifyCallerSignature, type SignedRequest } from '../../src/signing/caller-signature.ts';
import { createNet } from '../../src/net/index.ts';
import {
  startDnsServer,
  startHttpServer,
  zone,
  a,
  testConfig,
  type DnsServer,
  type LocalServer,
} from './local-servers.ts';

const DIRECTORY = 'https://dvs.example/.well-known/http-message-signatures-directory';
let key: SigningKey;
let stranger: SigningKey;
let dns: DnsServer;
let site: LocalServer;
const received: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];

const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([, v]) => typeof v === 'string') as Array<[string, string]>);

/** The independent implementation's verdict: it throws on any failure. */
async function cloudflareVerifies(
  request: { method: string; url: string; headers: Record<string, string> },
  signer: SigningKey,
): Promise<boolean> {
  const verifier = await verifierFromJWK({ kty: 'OKP', crv: 'Ed25519', x: signer.publicJwk.x });
  return wbaVerify(new Request(request.url, { method: request.method, headers: request.headers }), verifier).then(
    () => true,
    () => false,
  );
}

/** This service's verdict, with a directory at DIRECTORY that lists `k` (the directory's own checks are tested apart). */
const verdictWith = (request: SignedRequest, k: SigningKey) =>
  verifyCallerSignature(request, {
    directory: async (url) => ({
      ok: true,
      directory: {
        origin: url.origin,
        keys: new Map([[k.thumbprint, { keyid: k.thumbprint, publicKey: k.publicKeyObject, nbf: null, exp: null }]]),
      },
    }),
  });
const VERIFIED = (k: SigningKey) => ({ status: 'verified', agent: 'https://dvs.example', keyid: k.thumbprint });

beforeAll(async () => {
  key = await keyFromSeed('agent-key', new Uint8Array(32).fill(7), '2026-01-01T00:00:00Z');
  stranger = await keyFromSeed('agent-key', new Uint8Array(32).fill(9), '2026-01-01T00:00:00Z');
  site = await startHttpServer('127.0.0.2', (req, res) => {
    received.push({ method: req.method!, url: `http://${req.headers.host}${req.url}`, headers: req.headers });
    res.end('ok');
  });
  dns = await startDnsServer(zone({ 'site.test|A': [a('site.test', '127.0.0.2')], 'site.test|AAAA': [] }));
});
afterAll(async () => {
  await site.close();
  await dns.close();
});

describe('Web Bot Auth signing', () => {
  it('produces the profile: components, parameters and a quoted Signature-Agent', async () => {
    const sign = createWebBotAuthSigner(key, DIRECTORY);
    const headers = await sign(
      { method: 'GET', url: 'https://site.test/robots.txt', headers: {} },
      new Date('2026-03-01T12:00:00.700Z'),
    );
    expect(headers['signature-agent']).toBe(`"${DIRECTORY}"`);
    const input = headers['signature-input']!;
    expect(input).toMatch(/^sig1=\("@authority" "signature-agent"\);/);
    expect(input).toContain(';created=1772366400;expires=1772366460;');
    expect(input).toContain(`;keyid="${key.thumbprint}";alg="ed25519";`);
    expect(input).toMatch(/;nonce="[A-Za-z0-9+/]{86}==";tag="web-bot-auth"$/);
    expect(headers.signature).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/);
    const again = await sign(
      { method: 'GET', url: 'https://site.test/robots.txt', headers: {} },
      new Date('2026-03-01T12:00:00Z'),
    );
    expect(again['signature-input']).not.toBe(input);
  });

  it('is verified by both http-message-signatures and the independent web-bot-auth package', async () => {
    const request = { method: 'GET', url: 'https://site.test:8443/llms.txt', headers: { accept: 'text/plain' } };
    const signed = {
      ...request,
      headers: { ...request.headers, ...(await createWebBotAuthSigner(key, DIRECTORY)(request)) },
    };
    expect(await verdictWith(signed, key)).toEqual(VERIFIED(key));
    expect(await cloudflareVerifies(signed, key)).toBe(true);
    expect(await cloudflareVerifies(signed, stranger)).toBe(false);
  });

  it('verifies signatures the independent package made', async () => {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x, d: Buffer.from(key.seed).toString('base64url') };
    const request = new Request('https://site.test/', { headers: { 'Signature-Agent': `"${DIRECTORY}"` } });
    const now = new Date();
    const made = await signatureHeaders(request, await signerFromJWK(jwk), {
      created: now,
      expires: new Date(now.getTime() + 60_000),
    });
    const verdict = await verdictWith(
      {
        method: 'GET',
        url: 'https://site.test/',
        headers: {
          'signature-agent': `"${DIRECTORY}"`,
          signature: made.Signature,
          'signature-input': made['Signature-Input'],
        },
      },
      key,
    );
    expect(verdict).toEqual(VERIFIED(key));
  });

  it('refuses another authority, an unknown key, an expired signature and a missing one', async () => {
    const sign = createWebBotAuthSigner(key, DIRECTORY);
    const request = { method: 'GET', url: 'https://site.test/', headers: {} };
    const headers = await sign(request);
    expect(await verdictWith({ ...request, url: 'https://elsewhere.test/', headers }, key)).toMatchObject({
      status: 'invalid',
      reason: expect.stringMatching(/does not verify/) as string,
    });
    expect(await verdictWith({ ...request, headers }, stranger)).toMatchObject({
      status: 'invalid',
      reason: `keyid ${key.thumbprint} is not a key the directory lists and signed with`,
    });
    const stale = await sign(request, new Date(Date.now() - 5 * 60_000));
    expect(await verdictWith({ ...request, headers: stale }, key)).toMatchObject({
      status: 'invalid',
      reason: 'the signature has expired',
    });
    expect(
      await verdictWith({ ...request, headers: { ...headers, 'signature-agent': '"https://evil.example/"' } }, key),
    ).toMatchObject({ status: 'invalid' });
    expect(await verdictWith(request, key)).toEqual({ status: 'unsigned' });
    expect(await cloudflareVerifies({ ...request, url: 'https://elsewhere.test/', headers }, key)).toBe(false);
  });
});

describe('Net with an agent key', () => {
  it('signs every outgoing request so the receiving site can verify it with either library', async () => {
    const config = testConfig({ DVS_DNS_SERVERS: dns.server, DVS_ALLOW_NETWORKS: '127.0.0.2/32' });
    const net = createNet(config, { agentKey: key, signatureAgentUrl: DIRECTORY });
    received.length = 0;
    await net.request(`http://site.test:${site.port}/page?q=1`);
    const [got] = received;
    expect(got!.headers['signature-agent']).toBe(`"${DIRECTORY}"`);
    expect(await verdictWith(got!, key)).toEqual(VERIFIED(key));
    expect(await cloudflareVerifies({ method: got!.method, url: got!.url, headers: flat(got!.headers) }, key)).toBe(
      true,
    );
  });

  it('sends no signature without an agent key', async () => {
    const net = createNet(testConfig({ DVS_DNS_SERVERS: dns.server, DVS_ALLOW_NETWORKS: '127.0.0.2/32' }));
    received.length = 0;
    await net.request(`http://site.test:${site.port}/`);
    expect(received[0]!.headers.signature).toBeUndefined();
  });
});
