// The move from RFC 8037's polymorphic `EdDSA` to RFC 9864's `Ed25519` (issue 36 section 2): new certificates
// say `alg: Ed25519` under the same key and kid, certificates signed as `EdDSA` before the move keep verifying
// against the set published now, with our verifier and with jose, including a jose that allows one alg only.
import { sign } from 'node:crypto';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { encodeBase64url } from '../../src/lib/base64url.ts';
import { canonicalBytes, canonicalJson } from '../../src/lib/canonical-json.ts';
import { issueCertificate } from '../../src/signing/certificate.ts';
import { buildJwks } from '../../src/signing/jwks.ts';
import { CERTIFICATE_TYP } from '../../src/signing/jws.ts';
import { SIGNING_KID } from '../../src/signing/keys.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import { verifyCertificate } from '../../src/signing/verify.ts';
import { BASE_URL, fixedKey, reportFixture } from './fixtures.ts';
import { expectEvery } from '../helpers/every.ts';

const key = await fixedKey();
const published = buildJwks(key.publicJwk, []);
const current = issueCertificate({ report: reportFixture(), issuer: { baseUrl: BASE_URL }, key });

/** The same payload as the service signed it before the move: header `EdDSA`, same key, same kid. */
function signedAsEdDsa(cert: Certificate): Certificate {
  const header = encodeBase64url(Buffer.from(canonicalJson({ alg: 'EdDSA', kid: key.kid, typ: CERTIFICATE_TYP })));
  const input = Buffer.from(`${header}.${encodeBase64url(canonicalBytes(cert.payload))}`, 'ascii');
  return { ...cert, jws: `${header}..${encodeBase64url(sign(null, input, key.privateKeyObject))}` };
}
const before = signedAsEdDsa(current);

/** jose over the re-attached payload; `algorithms` is what a strict verifier allows. */
async function joseAlg(cert: Certificate, jwks: JSONWebKeySet, algorithms?: string[]): Promise<string> {
  const [h, , s] = cert.jws.split('.');
  const attached = `${h}.${encodeBase64url(canonicalBytes(cert.payload))}.${s}`;
  const { protectedHeader } = await compactVerify(attached, createLocalJWKSet(jwks), { algorithms });
  return `${protectedHeader.alg} ${protectedHeader.kid}`;
}

describe('certificates across the move to alg Ed25519', () => {
  it('signs new certificates as Ed25519 under service-signing-key-v1, and publishes the key with no alg', () => {
    expect(key.kid).toBe(SIGNING_KID);
    const header = JSON.parse(Buffer.from(current.jws.split('.')[0]!, 'base64url').toString()) as unknown;
    expect(header).toEqual({ alg: 'Ed25519', kid: SIGNING_KID, typ: CERTIFICATE_TYP });
    expect(published.keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x, kid: SIGNING_KID, use: 'sig' }]);
  });

  it('both verify with jose against the published set; a strict jose takes each only under its own name', async () => {
    expect(await joseAlg(current, published)).toBe(`Ed25519 ${SIGNING_KID}`);
    expect(await joseAlg(before, published)).toBe(`EdDSA ${SIGNING_KID}`);
    expect(await joseAlg(current, published, ['Ed25519'])).toBe(`Ed25519 ${SIGNING_KID}`);
    await expect(joseAlg(before, published, ['Ed25519'])).rejects.toThrow(
      /"alg" \(Algorithm\) Header Parameter value not allowed/,
    );
  });

  it('both verify with our verifier, which names the alg it found', async () => {
    for (const [cert, alg] of [
      [current, 'Ed25519'],
      [before, 'EdDSA'],
    ] as const) {
      const checks = await verifyCertificate(cert, { jwks: published });
      expectEvery(checks, (c) => c.ok, `checks of the ${alg} certificate`);
      expect(checks.find((c) => c.name === 'jws_header')?.detail).toBe(
        `alg ${alg}, typ ${CERTIFICATE_TYP}, kid ${SIGNING_KID} found in the JWK set`,
      );
    }
  });

  it('a set cached from before the move (the key pinned to EdDSA) refuses new certificates, as jose does', async () => {
    const cached = { keys: [{ ...key.publicJwk, alg: 'EdDSA' as const }] };
    expect(await joseAlg(before, cached)).toBe(`EdDSA ${SIGNING_KID}`);
    await expect(joseAlg(current, cached)).rejects.toThrow(/no applicable key/);
    const checks = await verifyCertificate(current, { jwks: cached });
    expect(checks.filter((c) => !c.ok).map((c) => c.detail)).toContain(
      `key ${SIGNING_KID} is for alg EdDSA, not Ed25519`,
    );
  });
});
