import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLocalJWKSet } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  asVerificationKey,
  buildJwks,
  findVerificationKey,
  loadJwks,
  loadRetiredKeys,
  parseJwks,
  thumbprintOf,
} from '../../src/signing/jwks.ts';
import { loadSigningKey, SIGNING_KID, type PublicJwk } from '../../src/signing/keys.ts';
import { fixedKey, tempDir } from './fixtures.ts';
import { stringMatching } from '../helpers/typed-json.ts';

describe('the signing key file', () => {
  it('is created with mode 0600 and reloads to the same key', async () => {
    const dir = tempDir();
    const created = await loadSigningKey(dir);
    const file = path.join(dir, 'signing-key.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(stored).toMatchObject({ kid: SIGNING_KID, crv: 'Ed25519', x: created.publicJwk.x });
    const reloaded = await loadSigningKey(dir);
    expect(reloaded.publicJwk).toEqual(created.publicJwk);
    expect(reloaded.thumbprint).toBe(created.thumbprint);
    expect(reloaded.createdAt).toBe(created.createdAt);
    expect(Buffer.from(reloaded.seed).equals(Buffer.from(created.seed))).toBe(true);
  });

  it('refuses a key file whose public key does not match its seed', async () => {
    const dir = tempDir();
    await loadSigningKey(dir);
    const file = path.join(dir, 'signing-key.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    writeFileSync(file, JSON.stringify({ ...stored, x: (await fixedKey()).publicJwk.x }));
    await expect(loadSigningKey(dir)).rejects.toThrow(/does not match the seed/);
  });
});

describe('the published JWK set', () => {
  it('holds the signing key, public members only and no alg (it verifies Ed25519 and EdDSA), jose accepts it', async () => {
    const dir = tempDir();
    const key = await loadSigningKey(dir);
    const jwks = await loadJwks(dir);
    expect(jwks).toEqual({
      keys: [{ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x, kid: SIGNING_KID, use: 'sig' }],
    });
    expect(JSON.stringify(jwks)).not.toContain(Buffer.from(key.seed).toString('base64url'));
    expect(() => createLocalJWKSet(jwks)).not.toThrow();
  });

  it('adds retired keys from retired-keys/*.json, ordered by kid', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'retired-keys'));
    const old1 = (await fixedKey(1, 'service-signing-key-v0')).publicJwk;
    const old2 = (await fixedKey(2, 'legacy-key')).publicJwk;
    writeFileSync(path.join(dir, 'retired-keys', 'a.json'), JSON.stringify(old1));
    // use may be left out of a retired key's file, and one retired before the move to Ed25519 says alg EdDSA:
    // the published set states use and pins no alg, so the key's EdDSA certificates verify as before.
    writeFileSync(
      path.join(dir, 'retired-keys', 'b.json'),
      JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: old2.x, kid: old2.kid, alg: 'EdDSA' }),
    );
    writeFileSync(path.join(dir, 'retired-keys', 'README.txt'), 'not a key');
    const jwks = await loadJwks(dir);
    expect(jwks.keys.map((k) => k.kid)).toEqual([SIGNING_KID, 'legacy-key', 'service-signing-key-v0']);
    expect(jwks.keys[1]).toEqual(old2);
    expect(jwks.keys.filter((k) => 'alg' in k)).toEqual([]);
  });

  it('refuses a retired key file with a private part, a wrong curve or broken JSON', async () => {
    const key = await fixedKey(3, 'old');
    const cases: Array<[string, RegExp]> = [
      [JSON.stringify({ ...key.publicJwk, d: Buffer.from(key.seed).toString('base64url') }), /private key/],
      [JSON.stringify({ ...key.publicJwk, crv: 'X25519' }), /not an Ed25519 key/],
      ['{"kty":', /retired key .*a\.json/],
    ];
    for (const [text, message] of cases) {
      const dir = tempDir();
      mkdirSync(path.join(dir, 'retired-keys'));
      writeFileSync(path.join(dir, 'retired-keys', 'a.json'), text);
      expect(() => loadRetiredKeys(dir)).toThrow(message);
    }
  });

  it('refuses two keys with one kid', async () => {
    const current = (await fixedKey(1)).publicJwk;
    const clash = (await fixedKey(2)).publicJwk;
    expect(() => buildJwks(current, [clash])).toThrow(/share the kid service-signing-key-v1/);
  });
});

describe('asVerificationKey and findVerificationKey', () => {
  const good: PublicJwk = {
    kty: 'OKP',
    crv: 'Ed25519',
    x: Buffer.alloc(32, 1).toString('base64url'),
    kid: 'k',
    use: 'sig',
  };

  it.each<[string, unknown, RegExp]>([
    ['an array', [], /not a JSON object/],
    ['an RSA key', { ...good, kty: 'RSA', crv: undefined }, /kty RSA/],
    ['a short x', { ...good, x: Buffer.alloc(31).toString('base64url') }, /32 bytes/],
    ['x in padded base64', { ...good, x: Buffer.alloc(32, 1).toString('base64') }, /32 bytes/],
    ['another alg', { ...good, alg: 'ES256' }, /alg ES256 is neither Ed25519 nor EdDSA/],
    ['Ed448', { ...good, alg: 'Ed448' }, /alg Ed448/],
    ['use enc', { ...good, use: 'enc' }, /use enc/],
    ['no kid', { ...good, kid: '' }, /no kid/],
  ])('refuses %s', (_name, value, reason) => {
    expect(asVerificationKey(value)).toEqual({ ok: false, reason: stringMatching(reason) });
  });

  it('reads a key that names Ed25519 or EdDSA as for that alg, one that names none as for either', () => {
    expect(asVerificationKey(good)).toEqual({ ok: true, jwk: good });
    for (const alg of ['Ed25519', 'EdDSA'])
      expect(asVerificationKey({ ...good, alg })).toEqual({ ok: true, jwk: { ...good, alg } });
  });

  it('finds exactly one key by kid, skipping keys of other kinds', () => {
    const set = parseJwks({ keys: [{ kty: 'RSA', kid: 'rsa', n: 'AQAB', e: 'AQAB' }, good] }, 'test');
    const found = findVerificationKey(set, 'k');
    expect(found.ok && found.jwk).toEqual(good);
    expect(found.ok && found.publicKey.asymmetricKeyType).toBe('ed25519');
    expect(findVerificationKey(set, 'rsa')).toEqual({ ok: false, reason: stringMatching(/key rsa: kty RSA/) });
    expect(findVerificationKey({ keys: [good, good] }, 'k')).toEqual({
      ok: false,
      reason: '2 keys with kid k in the JWK set',
    });
    expect(findVerificationKey({ keys: [] }, 'k')).toEqual({ ok: false, reason: 'no key with kid k in the JWK set' });
  });

  it('parseJwks refuses what is not a JWK set', () => {
    expect(() => parseJwks({ keys: {} }, 'here')).toThrow(/here: not a JWK set/);
    expect(() => parseJwks([], 'here')).toThrow(/not a JWK set/);
    expect(() => parseJwks({ keys: [{ kid: 'x' }] }, 'here')).toThrow(/keys\[0\] is not a JWK/);
  });
});

describe('thumbprintOf', () => {
  it('gives the RFC 8037 appendix A.3 thumbprint', async () => {
    const jwk: PublicJwk = {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      kid: 'rfc',
      use: 'sig',
    };
    expect(await thumbprintOf(jwk)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('agrees with the thumbprint the key loader computes', async () => {
    const key = await fixedKey();
    expect(await thumbprintOf(key.publicJwk)).toBe(key.thumbprint);
  });
});
