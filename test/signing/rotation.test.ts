// Key rotation (issue 10 item 5): `dvs keys rotate` makes v2 (then v3) the signing key, every retired public
// key stays in the JWK set and in the issuer's DNS anchors, and certificates from every key verify with jose.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { compactVerify, createLocalJWKSet } from 'jose';
import { describe, expect, it } from 'vitest';
import { run as keys } from '../../src/cli/keys.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { issuerAnchorRecord } from '../../src/signing/anchor.ts';
import { issueCertificate } from '../../src/signing/certificate.ts';
import { loadJwks } from '../../src/signing/jwks.ts';
import { loadSigningKey, nextKid } from '../../src/signing/keys.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import { verifyCertificate } from '../../src/signing/verify.ts';
import { BASE_URL, fakeDns, reportFixture, tempDir } from './fixtures.ts';
import { anyString } from '../helpers/typed-json.ts';

/** What docs/api.md tells a third party to do: re-attach the canonical payload, verify against the JWK set. */
async function joseVerifies(cert: Certificate, jwks: Parameters<typeof createLocalJWKSet>[0]): Promise<string> {
  const [header, , signature] = cert.jws.split('.');
  const attached = `${header}.${Buffer.from(canonicalize(cert.payload)!).toString('base64url')}.${signature}`;
  const { protectedHeader } = await compactVerify(attached, createLocalJWKSet(jwks));
  return protectedHeader.kid!;
}

describe('dvs keys rotate', () => {
  it('counts kids on from v1', () => {
    expect(nextKid('service-signing-key-v1')).toBe('service-signing-key-v2');
    expect(nextKid('service-signing-key-v9')).toBe('service-signing-key-v10');
    expect(() => nextKid('custom')).toThrow(/no -v<number> suffix/);
  });

  it('rotates twice; certificates of all three keys verify with jose and with their DNS anchors', async () => {
    const dataDir = tempDir();
    const config = loadConfig({ DVS_DATA_DIR: dataDir, DVS_BASE_URL: BASE_URL });
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, config };
    const certs: Certificate[] = [];
    for (let round = 0; round < 3; round++) {
      // A restart: the service loads whatever signing-key.json holds now.
      const key = await loadSigningKey(dataDir);
      expect(key.kid).toBe(`service-signing-key-v${round + 1}`);
      certs.push(
        issueCertificate({ report: reportFixture({ score: 90 + round }), issuer: { baseUrl: BASE_URL }, key }),
      );
      if (round < 2) expect(await keys(['rotate'], io)).toBe(0);
    }
    expect(out).toContain('retired  service-signing-key-v1');
    expect(out).toContain('current  service-signing-key-v3');
    expect(statSync(path.join(dataDir, 'signing-key.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dataDir, 'retired-keys', 'service-signing-key-v1.json'), 'utf8')).not.toContain(
      '"d"',
    );

    const jwks = await loadJwks(dataDir);
    expect(jwks.keys.map((k) => k.kid)).toEqual([
      'service-signing-key-v3',
      'service-signing-key-v1',
      'service-signing-key-v2',
    ]);
    for (const [i, cert] of certs.entries())
      expect(await joseVerifies(cert, jwks)).toBe(`service-signing-key-v${i + 1}`);

    let anchors = '';
    await keys(['anchor'], { ...io, stdout: { write: (t: string) => (anchors += t) } });
    const lines = anchors.trim().split('\n');
    expect(lines.map((l) => /kid=([^;]+);/.exec(l)![1])).toEqual(jwks.keys.map((k) => k.kid));
    const zone = {
      [issuerAnchorRecord(await loadSigningKey(dataDir), BASE_URL).name]: lines.map((l) => [/"(.*)"/.exec(l)![1]!]),
    };
    for (const cert of certs) {
      const checks = await verifyCertificate(cert, { jwks, dns: fakeDns(zone) });
      expect(checks.filter((c) => !c.ok)).toEqual([{ name: 'subject_anchor', ok: false, detail: anyString() }]);
      expect(checks.find((c) => c.name === 'issuer_anchor')!.ok).toBe(true);
    }
  });
});
