// The security.txt signature (RFC 9116 section 2.3): the keyless digest check tells a text edited after signing
// from one that still matches; a key the site names verifies it. Keys are made here with openpgp, so every
// signature is a real one.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as openpgp from 'openpgp';
import { checkCleartextSignature, readPublicKeys } from '../../../plugins/wellknown/openpgp-signature.ts';
import { provider } from '../../../plugins/wellknown/index.ts';
import { ObservationSchemas } from '../../../src/catalogue/observation-schemas.ts';
import { fakeContext, fakeNet, type Page } from '../fake-net.ts';

const OBSERVED = '2026-06-01T00:00:00Z';
const TEXT = [
  'Contact: mailto:security@good.test',
  'Expires: 2026-12-01T00:00:00Z',
  'Encryption: https://good.test/.well-known/pgp-key.txt',
  '- a line starting with a dash',
  '',
].join('\n');

interface Signer {
  publicKey: string;
  sign(text: string): Promise<string>;
}

async function signer(): Promise<Signer> {
  const pair = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'security@good.test' }],
    date: new Date('2026-01-01T00:00:00Z'),
    format: 'object',
  });
  return {
    publicKey: pair.publicKey.armor(),
    sign: async (text) =>
      openpgp.sign({
        message: await openpgp.createCleartextMessage({ text }),
        signingKeys: pair.privateKey,
        date: new Date('2026-02-01T00:00:00Z'),
      }),
  };
}

/**
 * A real file signed by GnuPG: the securityTxt constant of datumforge/datum
 * `internal/httpserve/handlers/wellknown.go`, served at api.datum.net. Its key sits on keys.openpgp.org, not on
 * the site, so it is checked without a key.
 */
const DATUM = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA512

Contact: mailto:security@datum.net
Expires: 2026-01-09T12:34:00.000Z
Encryption: https://keys.openpgp.org/vks/v1/by-fingerprint/CDD6CB47F5C8C90340CEB56F5024ED84F6BF803F
Preferred-Languages: en
Canonical: https://api.datum.net/.well-known/security.txt
Policy: https://github.com/datumforge/datum/security/policy
-----BEGIN PGP SIGNATURE-----

iHUEARYKAB0WIQTN1stH9cjJA0DOtW9QJO2E9r+APwUCZZ6RLgAKCRBQJO2E9r+A
PyjIAQC13xI75wq7o4MhparBplTo6ZCF+bJTyCrO5c5izag9IQD+KbAXRKq3pjXu
kwa/7CNQAyf7R//ZzA2npg2Ly5Jv4Qs=
=Uh5X
-----END PGP SIGNATURE-----
`;

const keysOf = (...armored: string[]) => readPublicKeys(armored.map((k) => Buffer.from(k)));

let site: Signer;
let other: Signer;
let signed: string;
beforeAll(async () => {
  [site, other] = await Promise.all([signer(), signer()]);
  signed = await site.sign(TEXT);
});

describe('checkCleartextSignature', () => {
  it('verifies a signed file with the key that signed it, and names that key', async () => {
    const keys = await keysOf(other.publicKey, site.publicKey);
    const check = await checkCleartextSignature(signed, keys, OBSERVED);
    expect(check).toEqual({
      verification: 'verified',
      keyId: keys[1]!.getKeyID().toHex(),
      created: '2026-02-01T00:00:00.000Z',
      error: null,
    });
  });

  it('finds an edit made after signing without any key (the digest check)', async () => {
    for (const edited of [
      signed.replace('2026-12-01', '2027-12-01'),
      signed.replace(/Contact: [^\r\n]*\r?\n/, ''),
      signed.replace('- - a line', '- - another line'),
    ]) {
      expect(edited).not.toBe(signed);
      expect((await checkCleartextSignature(edited, [], OBSERVED)).verification).toBe('digest_mismatch');
      expect((await checkCleartextSignature(edited, await keysOf(site.publicKey), OBSERVED)).verification).toBe(
        'digest_mismatch',
      );
    }
  });

  it('ignores what the cleartext frame does not sign: trailing blanks and the line-ending style', async () => {
    const blanks = signed.replace(/security@good.test(?=\r?\n)/, 'security@good.test \t');
    expect(blanks).not.toBe(signed);
    expect((await checkCleartextSignature(blanks, await keysOf(site.publicKey), OBSERVED)).verification).toBe(
      'verified',
    );
    const crlf = signed.replace(/\n/g, '\r\n');
    expect((await checkCleartextSignature(crlf, [], OBSERVED)).verification).toBe('no_known_key');
  });

  it('checks a real GnuPG signature without its key, and finds a one-character edit of it', async () => {
    expect(await checkCleartextSignature(DATUM, [], OBSERVED)).toEqual({
      verification: 'no_known_key',
      keyId: '5024ed84f6bf803f',
      created: '2024-01-10T12:44:30.000Z',
      error: null,
    });
    const edited = DATUM.replace('Preferred-Languages: en', 'Preferred-Languages: de');
    expect((await checkCleartextSignature(edited, [], OBSERVED)).verification).toBe('digest_mismatch');
  });

  it('says no_known_key when the text matches but no key the site names made the signature', async () => {
    expect((await checkCleartextSignature(signed, await keysOf(other.publicKey), OBSERVED)).verification).toBe(
      'no_known_key',
    );
  });

  it('says failed, with openpgp reason, when the key refuses the signature at the observation date', async () => {
    // Signed on 2026-02-01: seen on 2026-01-15 the signature claims a creation time still to come.
    const check = await checkCleartextSignature(signed, await keysOf(site.publicKey), '2026-01-15T00:00:00Z');
    expect(check.verification).toBe('failed');
    expect(check.error).toMatch(/future/i);
  });

  it('says unreadable for a signature block that is not an OpenPGP signature', async () => {
    const garbled = signed.replace(/(-----BEGIN PGP SIGNATURE-----\n\n)[^\n]+/, '$1bm90IGEgc2lnbmF0dXJl');
    expect(await checkCleartextSignature(garbled, [], OBSERVED)).toEqual({
      verification: 'unreadable',
      keyId: null,
      created: null,
      error: null,
    });
  });

  it('reads no key from a file that holds none', async () => {
    expect(await readPublicKeys([Buffer.from('not a key'), Buffer.from([0x99, 0x01])])).toEqual([]);
  });
});

describe('the security_txt facet', () => {
  const schemas = ObservationSchemas.fromDirectory(path.resolve(import.meta.dirname, '../../../schemas/observations'));

  async function collect(pages: Record<string, Page>) {
    const seen: string[] = [];
    const ctx = { ...fakeContext(fakeNet(pages, seen), 'wellknown', ['security_txt']), observedAt: OBSERVED };
    const data = (await provider.collect('good.test', ctx)) as { security_txt: { signature: unknown } };
    expect(schemas.validate('wellknown', data, 'partial')).toBeNull();
    return { signature: data.security_txt.signature, seen };
  }

  it('fetches the Encryption key on the site and verifies with it', async () => {
    const { signature, seen } = await collect({
      '/.well-known/security.txt': { status: 200, body: signed },
      '/.well-known/pgp-key.txt': { status: 200, body: site.publicKey },
    });
    expect(signature).toMatchObject({
      verification: 'verified',
      key_urls: ['https://good.test/.well-known/pgp-key.txt'],
      keys_read: 1,
    });
    expect(seen).toContain('https://good.test/.well-known/pgp-key.txt');
  });

  it('does not fetch a key from another site, and still finds an edited text', async () => {
    const offSite = await site.sign(TEXT.replace('https://good.test/', 'https://keys.example/'));
    const { signature, seen } = await collect({
      '/.well-known/security.txt': { status: 200, body: offSite.replace('2026-12-01', '2027-12-01') },
    });
    expect(signature).toMatchObject({ verification: 'digest_mismatch', key_urls: [], keys_read: 0 });
    expect(seen.some((u) => u.includes('keys.example'))).toBe(false);
  });

  it('records no signature for an unsigned file', async () => {
    const { signature } = await collect({ '/.well-known/security.txt': { status: 200, body: TEXT } });
    expect(signature).toBeNull();
  });
});
