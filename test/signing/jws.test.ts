import { sign } from 'node:crypto';
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { compactVerify, createLocalJWKSet, flattenedVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { encodeBase64url } from '../../src/lib/base64url.ts';
import { buildJwks } from '../../src/signing/jwks.ts';
import { CERTIFICATE_TYP, signDetached, verifyDetached } from '../../src/signing/jws.ts';
import { keyFromSeed } from '../../src/signing/keys.ts';
import { fixedKey } from './fixtures.ts';
import { stringMatching } from '../helpers/typed-json.ts';

const key = await fixedKey();
const jwks = buildJwks(key.publicJwk, []);
const payload = new TextEncoder().encode('{"hello":"world"}');

/** A JWS with the given header, signed properly, to probe the header checks one at a time. */
function withHeader(header: Record<string, unknown>, body = payload): string {
  const h = encodeBase64url(Buffer.from(JSON.stringify(header)));
  const signature = sign(null, Buffer.from(`${h}.${encodeBase64url(body)}`), key.privateKeyObject);
  return `${h}..${encodeBase64url(signature)}`;
}

describe('signDetached', () => {
  const jws = signDetached(payload, key, CERTIFICATE_TYP);

  it('writes <header>..<signature> with the RFC 9864 Ed25519 header', () => {
    const [h, middle, s] = jws.split('.');
    expect(middle).toBe('');
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toEqual({
      alg: 'Ed25519',
      kid: 'service-signing-key-v1',
      typ: CERTIFICATE_TYP,
    });
    expect(Buffer.from(s!, 'base64url')).toHaveLength(64);
  });

  it('verifies with jose once the payload is re-attached', async () => {
    const [h, , s] = jws.split('.') as [string, string, string];
    const result = await flattenedVerify(
      { protected: h, payload: encodeBase64url(payload), signature: s },
      createLocalJWKSet(jwks),
    );
    expect(new TextDecoder().decode(result.payload)).toBe('{"hello":"world"}');
    expect(result.protectedHeader?.kid).toBe(key.kid);
    const other = new TextEncoder().encode('{"hello":"world!"}');
    await expect(
      flattenedVerify(
        { protected: h, payload: encodeBase64url(other), signature: s },
        await importJWK(key.publicJwk, 'Ed25519'),
      ),
    ).rejects.toThrow(/signature verification failed/);
  });

  it('gives the signature @noble/ed25519 gives over the same signing input (Ed25519 is deterministic)', async () => {
    const [h, , s] = jws.split('.') as [string, string, string];
    const input = new TextEncoder().encode(`${h}.${encodeBase64url(payload)}`);
    expect(encodeBase64url(await ed.signAsync(input, key.seed))).toBe(s);
    expect(signDetached(payload, key, CERTIFICATE_TYP)).toBe(jws);
  });

  it('reproduces RFC 8032 section 7.1 TEST 1 through the key loader', async () => {
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    const rfcKey = await keyFromSeed('rfc8032', seed, '2026-01-01T00:00:00.000Z');
    expect(Buffer.from(rfcKey.publicKey).toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
    expect(sign(null, Buffer.alloc(0), rfcKey.privateKeyObject).toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });
});

describe('verifyDetached', () => {
  const jws = signDetached(payload, key, CERTIFICATE_TYP);

  it('accepts the signature it made and names the key', () => {
    const result = verifyDetached(jws, payload, jwks, CERTIFICATE_TYP);
    expect(result).toEqual({
      ok: true,
      header: { alg: 'Ed25519', kid: key.kid, typ: CERTIFICATE_TYP },
      key: key.publicJwk,
    });
  });

  it('still accepts a signature made as EdDSA before the move, with the same key and kid', () => {
    const old = withHeader({ alg: 'EdDSA', kid: key.kid, typ: CERTIFICATE_TYP });
    expect(verifyDetached(old, payload, jwks, CERTIFICATE_TYP)).toMatchObject({
      ok: true,
      header: { alg: 'EdDSA', kid: key.kid },
    });
  });

  it('holds a key that names its alg to that alg, as jose does', async () => {
    const old = withHeader({ alg: 'EdDSA', kid: key.kid, typ: CERTIFICATE_TYP });
    const attached = (text: string) => text.replace('..', `.${encodeBase64url(payload)}.`);
    for (const [pinned, good, refused] of [
      ['EdDSA', old, jws],
      ['Ed25519', jws, old],
    ] as const) {
      const set = { keys: [{ ...key.publicJwk, alg: pinned }] };
      expect(verifyDetached(good, payload, set, CERTIFICATE_TYP).ok).toBe(true);
      expect(verifyDetached(refused, payload, set, CERTIFICATE_TYP)).toMatchObject({
        ok: false,
        step: 'key',
        reason: `key ${key.kid} is for alg ${pinned}, not ${pinned === 'EdDSA' ? 'Ed25519' : 'EdDSA'}`,
      });
      await compactVerify(attached(good), createLocalJWKSet(set));
      await expect(compactVerify(attached(refused), createLocalJWKSet(set))).rejects.toThrow(/no applicable key/);
    }
  });

  it('fails when any byte of the payload changes', () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ domain: 'good.test', verdict: 'CERTIFIED', score: 92 }));
    const signed = signDetached(bytes, key, CERTIFICATE_TYP);
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, delta) => {
        const edited = Uint8Array.from(bytes);
        edited[at] = (edited[at]! + delta) % 256;
        const result = verifyDetached(signed, edited, jwks, CERTIFICATE_TYP);
        expect(result.ok).toBe(false);
        expect(!result.ok && result.step).toBe('signature');
      }),
    );
  });

  it('fails when any bit of the signature flips', () => {
    const [h, , s] = jws.split('.') as [string, string, string];
    const signature = Buffer.from(s, 'base64url');
    fc.assert(
      fc.property(fc.nat(64 * 8 - 1), (bit) => {
        const flipped = Buffer.from(signature);
        flipped[bit >> 3]! ^= 1 << (bit & 7);
        const result = verifyDetached(`${h}..${encodeBase64url(flipped)}`, payload, jwks, CERTIFICATE_TYP);
        expect(result.ok).toBe(false);
      }),
    );
  });

  it('refuses a signature spelled in non-canonical base64url, though it decodes to the same bytes', () => {
    const [h, , s] = jws.split('.') as [string, string, string];
    // 64 bytes leave 4 unused bits in the last character; changing them keeps the decoded bytes.
    const last = s.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = [...alphabet].find(
      (c) => c !== last && Buffer.from(s.slice(0, -1) + c, 'base64url').equals(Buffer.from(s, 'base64url')),
    )!;
    const result = verifyDetached(`${h}..${s.slice(0, -1)}${twin}`, payload, jwks, CERTIFICATE_TYP);
    expect(result).toMatchObject({
      ok: false,
      step: 'signature',
      reason: stringMatching(/canonical base64url/),
    });
  });

  it('refuses a JWS that is not detached compact', () => {
    const [h, , s] = jws.split('.') as [string, string, string];
    for (const text of [`${h}.${encodeBase64url(payload)}.${s}`, `${h}.${s}`, '', `${h}..${s}.x`]) {
      expect(verifyDetached(text, payload, jwks, CERTIFICATE_TYP)).toMatchObject({ ok: false, step: 'format' });
    }
  });

  const headers: Array<[string, Record<string, unknown>, RegExp]> = [
    ['alg none', { alg: 'none', kid: key.kid, typ: CERTIFICATE_TYP }, /alg is "none"/],
    ['alg HS256', { alg: 'HS256', kid: key.kid, typ: CERTIFICATE_TYP }, /alg is "HS256"/],
    ['alg Ed25519 spelled otherwise', { alg: 'ed25519', kid: key.kid, typ: CERTIFICATE_TYP }, /alg is "ed25519"/],
    ['alg Ed448', { alg: 'Ed448', kid: key.kid, typ: CERTIFICATE_TYP }, /alg is "Ed448"/],
    ['no kid', { alg: 'EdDSA', typ: CERTIFICATE_TYP }, /kid is missing/],
    ['another typ', { alg: 'EdDSA', kid: key.kid, typ: 'JWT' }, /typ is "JWT"/],
    ['no typ', { alg: 'EdDSA', kid: key.kid }, /typ is undefined/],
    [
      'crit',
      { alg: 'EdDSA', kid: key.kid, typ: CERTIFICATE_TYP, crit: ['b64'], b64: false },
      /unexpected members: crit, b64/,
    ],
    [
      'an embedded key',
      { alg: 'EdDSA', kid: key.kid, typ: CERTIFICATE_TYP, jwk: key.publicJwk },
      /unexpected members: jwk/,
    ],
  ];
  it.each(headers)('refuses a header with %s, although the signature is good', (_name, header, reason) => {
    expect(verifyDetached(withHeader(header), payload, jwks, CERTIFICATE_TYP)).toMatchObject({
      ok: false,
      step: 'header',
      reason: stringMatching(reason),
    });
  });

  it('refuses a header that is not base64url JSON', () => {
    const [, , s] = jws.split('.') as [string, string, string];
    expect(verifyDetached(`e30=..${s}`, payload, jwks, CERTIFICATE_TYP)).toMatchObject({
      step: 'header',
      reason: stringMatching(/base64url/),
    });
    expect(
      verifyDetached(`${encodeBase64url(Buffer.from('[1]'))}..${s}`, payload, jwks, CERTIFICATE_TYP),
    ).toMatchObject({ step: 'header', reason: stringMatching(/object/) });
    expect(
      verifyDetached(`${encodeBase64url(Buffer.from([0xff, 0x7b]))}..${s}`, payload, jwks, CERTIFICATE_TYP),
    ).toMatchObject({ step: 'header', reason: stringMatching(/UTF-8 JSON/) });
  });

  it('refuses a kid the JWK set does not hold, and a key of another holder under that kid', async () => {
    const stranger = await fixedKey(9, 'someone-else');
    const foreign = signDetached(payload, stranger, CERTIFICATE_TYP);
    expect(verifyDetached(foreign, payload, jwks, CERTIFICATE_TYP)).toMatchObject({
      ok: false,
      step: 'key',
      reason: stringMatching(/no key with kid someone-else/),
    });
    const impostor = await fixedKey(9);
    const forged = signDetached(payload, impostor, CERTIFICATE_TYP);
    expect(verifyDetached(forged, payload, jwks, CERTIFICATE_TYP)).toMatchObject({ ok: false, step: 'signature' });
  });
});
