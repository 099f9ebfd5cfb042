import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { encodeBase64url } from '../../src/lib/base64url.ts';
import { canonicalBytes, canonicalJson, digestOf } from '../../src/lib/canonical-json.ts';
import { certificateText, issueCertificate } from '../../src/signing/certificate.ts';
import { buildJwks, type Jwks } from '../../src/signing/jwks.ts';
import { CERTIFICATE_TYP } from '../../src/signing/jws.ts';
import { coreOf, type Certificate } from '../../src/signing/payload.ts';
import { verifyCertificate } from '../../src/signing/verify.ts';
import { BASE_URL, fixedKey, reportFixture, tempDir } from './fixtures.ts';
import { parseAs } from '../helpers/typed-json.ts';

const key = await fixedKey();
const jwks = buildJwks(key.publicJwk, []);
const issue = (report = reportFixture()): Certificate =>
  issueCertificate({ report, issuer: { baseUrl: BASE_URL }, key });

/** What any JOSE verifier does with a certificate: re-attach the canonical payload to the detached JWS. */
async function joseAccepts(text: string, keys: Jwks): Promise<boolean> {
  try {
    const cert = JSON.parse(text) as Certificate;
    const [h, middle, s, ...rest] = cert.jws.split('.');
    // RFC 7515 appendix F: a detached JWS has an empty payload part, which the verifier fills in.
    if (middle !== '' || rest.length > 0 || h === undefined || s === undefined) return false;
    await flattenedVerify(
      { protected: h, payload: encodeBase64url(canonicalBytes(cert.payload)), signature: s },
      createLocalJWKSet(keys as JSONWebKeySet),
    );
    return true;
  } catch {
    return false;
  }
}

async function oursAccepts(text: string, keys: Jwks): Promise<boolean> {
  let cert: unknown;
  try {
    cert = JSON.parse(text);
  } catch {
    return false;
  }
  return (await verifyCertificate(cert, { jwks: keys })).every((c) => c.ok);
}

describe('issueCertificate', () => {
  const { payload, jws } = issue();

  it('dates the certificate: issued when signed, expiring the lifetime after its observations (issue 10 item 1)', () => {
    const dated = issueCertificate({
      report: reportFixture(),
      issuer: { baseUrl: BASE_URL },
      key,
      validity: { issuedAt: new Date('2026-03-01T12:05:30.250Z'), lifetimeSeconds: 7 * 86_400 },
    }).payload;
    expect(dated).toMatchObject({ issued_at: '2026-03-01T12:05:30Z', expires_at: '2026-03-08T12:00:00Z' });
    const sign =
      (issuedAt: string, lifetimeSeconds = 86_400) =>
      () =>
        issueCertificate({
          report: reportFixture(),
          issuer: { baseUrl: BASE_URL },
          key,
          validity: { issuedAt: new Date(issuedAt), lifetimeSeconds },
        });
    expect(sign('2026-03-03T00:00:00Z')).toThrow(/older than the certificate lifetime/);
    expect(sign('2026-02-28T00:00:00Z')).toThrow(/is before observed_at/);
  });

  it('builds the payload from the report', () => {
    expect(payload).toMatchObject({
      type: 'dvs.certificate',
      version: 1,
      domain: 'good.test',
      verdict: 'CERTIFIED',
      score: 92,
      tier: 'full',
      ruleset: { version: '1.0.0', digest: 'a'.repeat(64) },
      engine: 'dvs-engine/1.0',
      observed_at: '2026-03-01T12:00:00Z',
      issued_at: '2026-03-01T12:00:00Z',
      expires_at: '2026-05-30T12:00:00Z',
      evidence_digest: 'b'.repeat(64),
      issuer: { base_url: BASE_URL, jwks_url: `${BASE_URL}/.well-known/jwks.json`, kid: 'service-signing-key-v1' },
    });
    expect(Object.keys(payload).sort()).toEqual([
      'anchor',
      'domain',
      'engine',
      'evidence_digest',
      'expires_at',
      'id',
      'issued_at',
      'issuer',
      'observed_at',
      'results',
      'ruleset',
      'score',
      'tier',
      'type',
      'verdict',
      'version',
    ]);
  });

  it('lists the outcomes by rule id; failed and errored results also say what their rule saw, the others stay lean', () => {
    const report = reportFixture();
    report.results[0] = { ...report.results[0]!, outcome: 'error', reason: 'probe tls: timeout' };
    report.results[1] = { ...report.results[1]!, outcome: 'fail' };
    const { payload: p } = issue(report);
    expect(p.results.map((r) => r.id)).toEqual([
      'dns.caa.present',
      'http.redirect.https',
      'tls.protocol.tls13_supported',
      'wellknown.llms_txt.valid',
    ]);
    expect(p.results[2]).toEqual({
      id: 'tls.protocol.tls13_supported',
      version: 1,
      level: 'required',
      outcome: 'error',
      observed: { 'tls.versions.tls1_3': true },
    });
    expect(p.results[0]).toEqual({
      id: 'dns.caa.present',
      version: 2,
      level: 'recommended',
      outcome: 'fail',
      observed: { 'dns.caa': ['0 issue "ca.test"'] },
    });
    expect(p.results[1]).toEqual({ id: 'http.redirect.https', version: 1, level: 'required', outcome: 'pass' });
    expect(p.results[3]).toEqual({
      id: 'wellknown.llms_txt.valid',
      version: 1,
      level: 'informational',
      outcome: 'not_applicable',
    });
  });

  it('derives the id and the anchor from the core (the payload without them)', () => {
    const digest = digestOf(coreOf(payload));
    expect(digest).toBe(
      digestOf(Object.fromEntries(Object.entries(payload).filter(([k]) => k !== 'id' && k !== 'anchor'))),
    );
    expect(payload.id).toBe(`dvc_${digest.slice(0, 32)}`);
    expect(payload.anchor).toEqual({
      name: '_agent-validation.good.test',
      type: 'TXT',
      value: `v=dv1; id=${payload.id}; sha256=${digest}`,
    });
  });

  it('signs the canonical payload with the RFC 9864 Ed25519 header', () => {
    const header = JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString()) as unknown;
    expect(header).toEqual({ alg: 'Ed25519', kid: 'service-signing-key-v1', typ: CERTIFICATE_TYP });
  });

  it('strips a trailing slash from the base URL', () => {
    const { payload: p } = issueCertificate({ report: reportFixture(), issuer: { baseUrl: `${BASE_URL}/` }, key });
    expect(p.issuer.base_url).toBe(BASE_URL);
    expect(p).toEqual(payload);
  });

  it('refuses a Quick Scan report, a report without results and a report that lists a rule twice', () => {
    expect(() => issue(reportFixture({ tier: 'quick' }))).toThrow(/only a full-tier report/);
    expect(() => issue(reportFixture({ results: [] }))).toThrow(/nothing to certify/);
    const twice = reportFixture();
    twice.results.push({ ...twice.results[0]! });
    expect(() => issue(twice)).toThrow(/lists rule tls.protocol.tls13_supported twice/);
  });

  it('gives a different id for any change of the outcome, domain or evidence', () => {
    const changed = [
      reportFixture({ domain: 'other.test' }),
      reportFixture({ verdict: 'NOT_CONFORMANT' }),
      reportFixture({ score: 91 }),
      reportFixture({ evidence_digest: 'c'.repeat(64) }),
      reportFixture({ observed_at: '2026-03-01T12:00:01Z' }),
    ];
    const ids = new Set([payload.id, ...changed.map((r) => issue(r).payload.id)]);
    expect(ids.size).toBe(changed.length + 1);
  });
});

describe('determinism', () => {
  it('the same report gives a byte-identical certificate, whatever its key and result order', () => {
    const text = certificateText(issue());
    fc.assert(
      fc.property(fc.shuffledSubarray(reportFixture().results, { minLength: 4 }), (results) => {
        const report = JSON.parse(canonicalJson(reportFixture({ results }))) as ReturnType<typeof reportFixture>;
        const reversed = Object.fromEntries(Object.entries(report).reverse()) as typeof report;
        expect(certificateText(issue(reversed))).toBe(text);
      }),
    );
  });

  it('a report fixture issued twice from fresh key objects gives the same bytes', async () => {
    const again = issueCertificate({ report: reportFixture(), issuer: { baseUrl: BASE_URL }, key: await fixedKey() });
    expect(certificateText(again)).toBe(certificateText(issue()));
  });
});

describe('a certificate file', () => {
  it('is canonical JSON of {payload, jws}', () => {
    const cert = issue();
    const text = certificateText(cert);
    expect(text).toBe(canonicalJson({ jws: cert.jws, payload: cert.payload }));
    expect(text.startsWith('{"jws":"')).toBe(true);
  });

  it('round-trips: issue, write, read, verify with our verifier and with jose', async () => {
    const file = path.join(tempDir(), 'cert.json');
    writeFileSync(file, certificateText(issue()));
    const text = readFileSync(file, 'utf8');
    const checks = await verifyCertificate(JSON.parse(text), { jwks });
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ['structure', true],
      ['id', true],
      ['anchor', true],
      ['issuer', true],
      ['jws_header', true],
      ['signature', true],
    ]);
    const cert = JSON.parse(text) as Certificate;
    const [h, , s] = cert.jws.split('.') as [string, string, string];
    const verified = await flattenedVerify(
      { protected: h, payload: encodeBase64url(canonicalBytes(cert.payload)), signature: s },
      createLocalJWKSet(jwks),
    );
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(cert.payload);
    expect(verified.protectedHeader).toEqual({ alg: 'Ed25519', kid: 'service-signing-key-v1', typ: CERTIFICATE_TYP });
  });

  it("does not verify with another issuer's key set", async () => {
    const other = buildJwks((await fixedKey(8)).publicJwk, []);
    const text = certificateText(issue());
    expect(await oursAccepts(text, other)).toBe(false);
    expect(await joseAccepts(text, other)).toBe(false);
  });

  describe('with one byte edited', () => {
    const original = Buffer.from(certificateText(issue()), 'utf8');
    const originalSignature = Buffer.from(
      (JSON.parse(original.toString()) as Certificate).jws.split('.')[2]!,
      'base64url',
    );

    /**
     * jose decodes base64url leniently: the last character of the 86-character signature carries 4 unused
     * bits, so 15 other characters spell the same 64 bytes. That is the one edit it may accept; ours refuses it.
     */
    function sameSignatureRespelled(text: string): boolean {
      try {
        const cert = JSON.parse(text) as Certificate;
        return (
          canonicalJson(cert.payload) === canonicalJson(parseAs('certificate', original.toString()).payload) &&
          Buffer.from(cert.jws.split('.')[2]!, 'base64url').equals(originalSignature)
        );
      } catch {
        return false;
      }
    }

    async function expectRefused(at: number, value: number): Promise<void> {
      const edited = Buffer.from(original);
      edited[at] = value;
      const text = new TextDecoder().decode(edited);
      expect(await oursAccepts(text, jwks), `our verifier accepted byte ${at} = ${value}`).toBe(false);
      if (!sameSignatureRespelled(text))
        expect(await joseAccepts(text, jwks), `jose accepted byte ${at} = ${value}`).toBe(false);
    }

    it('is verified unedited by both', async () => {
      expect(await oursAccepts(original.toString(), jwks)).toBe(true);
      expect(await joseAccepts(original.toString(), jwks)).toBe(true);
    });

    it('fails both verifiers at every position (lowest bit flipped)', async () => {
      for (let at = 0; at < original.length; at++) await expectRefused(at, original[at]! ^ 1);
    });

    it("fails ours for every other spelling of the signature's last character, jose where the bytes change", async () => {
      const at = original.indexOf('","payload"') - 1;
      for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') {
        if (c.charCodeAt(0) !== original[at]) await expectRefused(at, c.charCodeAt(0));
      }
    });

    it('fails both verifiers for any byte value at any position', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 }), async (at, value) => {
          fc.pre(original[at] !== value);
          await expectRefused(at, value);
        }),
        { numRuns: 300 },
      );
    });
  });
});
