// Key rotation of a running service (issue 10 item 5): `dvs keys rotate` runs against the data directory while the
// service serves, and without a restart the next certificate and response are signed by v2, the JWK set lists
// both keys, every certificate verifies with jose against the set the service publishes, and the issuer anchor
// records list both thumbprints.
import canonicalize from 'canonicalize';
import { calculateJwkThumbprint, compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run as keys } from '../../src/cli/keys.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import { startApiWorld, startTestService, type TestService } from './harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;

beforeAll(async () => {
  world = await startApiWorld(['good']);
  svc = await startTestService({ ...world.env, DVS_FULL_DEADLINE_MS: '60000' });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

async function certify(): Promise<Certificate> {
  const res = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: svc.gate.issue() });
  expect(res.status, res.text).toBe(200);
  return JSON.parse((res.json() as { content: { text: string }[] }).content[1]!.text) as Certificate;
}

/** What docs/api.md tells a relying party: re-attach the canonical payload, verify against the published set. */
async function joseVerifies(cert: Certificate, jwks: JSONWebKeySet): Promise<string> {
  const [header, , signature] = cert.jws.split('.');
  const attached = `${header}.${Buffer.from(canonicalize(cert.payload)!).toString('base64url')}.${signature}`;
  const { protectedHeader } = await compactVerify(attached, createLocalJWKSet(jwks));
  return protectedHeader.kid!;
}

const responseKeyid = (headers: Record<string, string>) => /keyid="([^"]+)"/.exec(headers['signature-input']!)![1];

async function dvsKeys(action: string): Promise<string> {
  let out = '';
  const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, config: svc.config };
  expect(await keys([action], io)).toBe(0);
  return out;
}

it('signs with the rotated key without a restart; both keys verify with jose and are anchored', async () => {
  const first = await certify();
  expect(first.payload.issuer.kid).toBe('service-signing-key-v1');
  expect(responseKeyid((await svc.call('GET', '/healthz')).headers)).toBe('service-signing-key-v1');

  const rotated = await dvsKeys('rotate');
  expect(rotated).toContain('current  service-signing-key-v2');

  const second = await certify();
  expect(second.payload.issuer.kid).toBe('service-signing-key-v2');
  expect(responseKeyid((await svc.call('GET', '/healthz')).headers)).toBe('service-signing-key-v2');

  const jwks = (await svc.call('GET', '/.well-known/jwks.json')).json() as JSONWebKeySet;
  expect(jwks.keys.map((k) => k.kid)).toEqual(['service-signing-key-v2', 'service-signing-key-v1']);
  expect(await joseVerifies(first, jwks)).toBe('service-signing-key-v1');
  expect(await joseVerifies(second, jwks)).toBe('service-signing-key-v2');
  // A certificate signed by v1 does not verify under v2 alone: the retired key really is needed.
  await expect(joseVerifies(first, { keys: jwks.keys.slice(0, 1) })).rejects.toThrow();

  const anchors = await dvsKeys('anchor');
  for (const key of jwks.keys) {
    const thumbprint = await calculateJwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x }, 'sha256');
    expect(anchors).toMatch(new RegExp(`kid=${key.kid};.*${thumbprint}`));
  }
}, 120_000);
