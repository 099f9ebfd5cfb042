import { describe, expect, it } from 'vitest';
import {
  anchorPresent,
  issuerAnchorRecord,
  parseTags,
  subjectAnchorRecord,
  zoneLine,
} from '../../src/signing/anchor.ts';
import { canonicalBytes } from '../../src/lib/canonical-json.ts';
import { issueCertificate } from '../../src/signing/certificate.ts';
import { buildJwks } from '../../src/signing/jwks.ts';
import { CERTIFICATE_TYP, signDetached } from '../../src/signing/jws.ts';
import type { Certificate, CertificatePayload } from '../../src/signing/payload.ts';
import { verifyCertificate, type Check } from '../../src/signing/verify.ts';
import { BASE_URL, fakeDns, fixedKey, reportFixture } from './fixtures.ts';
import { stringMatching } from '../helpers/typed-json.ts';
import { expectEvery } from '../helpers/every.ts';

const key = await fixedKey();
const jwks = buildJwks(key.publicJwk, []);
const cert = issueCertificate({ report: reportFixture(), issuer: { baseUrl: BASE_URL }, key });
const subject = subjectAnchorRecord(cert.payload);
const issuer = issuerAnchorRecord(key, BASE_URL);

/** A certificate whose payload was changed after issue and then properly re-signed, so only content checks can catch it. */
const resigned = (edit: (p: CertificatePayload) => CertificatePayload): Certificate => {
  const payload = edit(structuredClone(cert.payload));
  return { payload, jws: signDetached(canonicalBytes(payload), key, CERTIFICATE_TYP) };
};

const outcome = (checks: Check[]): Record<string, boolean> => Object.fromEntries(checks.map((c) => [c.name, c.ok]));
const detail = (checks: Check[], name: Check['name']): string => checks.find((c) => c.name === name)!.detail;

describe('anchor records', () => {
  it('names the records to publish', () => {
    expect(subject).toEqual(cert.payload.anchor);
    expect(issuer).toEqual({
      name: '_dvs-key.dvs.example.net',
      type: 'TXT',
      value: `v=dvk1; kid=service-signing-key-v1; jkt=${key.thumbprint}`,
    });
    expect(issuerAnchorRecord(key, 'https://DVS.Example.NET:8443')).toEqual(issuer);
    expect(zoneLine(issuer)).toBe(
      `_dvs-key.dvs.example.net. IN TXT "v=dvk1; kid=service-signing-key-v1; jkt=${key.thumbprint}"`,
    );
  });

  it('reads tag lists leniently about spacing, strictly about duplicates and shape', () => {
    expect(parseTags(' v=dv1 ;id = x;; sha256=y; ')).toEqual(
      new Map([
        ['v', 'dv1'],
        ['id', 'x'],
        ['sha256', 'y'],
      ]),
    );
    expect(parseTags('v=dv1; v=dv2')).toBeNull();
    expect(parseTags('v=dv1; junk')).toBeNull();
    expect(parseTags('=x')).toBeNull();
  });

  it('finds the expected record among others, joined from several strings, with extra tags', () => {
    const [head, tail] = [subject.value.slice(0, 40), subject.value.slice(40)];
    expect(anchorPresent([['v=spf1 -all'], [head, tail]], subject)).toBe(true);
    expect(anchorPresent([[`${subject.value}; note=second cert`]], subject)).toBe(true);
    expect(anchorPresent([[subject.value.replace('v=dv1', 'v=dv2')]], subject)).toBe(false);
    expect(anchorPresent([[subject.value.slice(0, -1)]], subject)).toBe(false);
    expect(anchorPresent([], subject)).toBe(false);
  });
});

describe('verifyCertificate', () => {
  it('passes every check of an issued certificate, DNS anchors included', async () => {
    const dns = fakeDns({ [subject.name]: [[subject.value]], [issuer.name]: [[issuer.value]] });
    const checks = await verifyCertificate(cert, { jwks, dns });
    expect(checks.map((c) => c.name)).toEqual([
      'structure',
      'id',
      'anchor',
      'issuer',
      'jws_header',
      'signature',
      'subject_anchor',
      'issuer_anchor',
    ]);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(dns.asked).toEqual(['_agent-validation.good.test', '_dvs-key.dvs.example.net']);
  });

  it('asks no DNS without a lookup function', async () => {
    expect((await verifyCertificate(cert, { jwks })).map((c) => c.name)).not.toContain('subject_anchor');
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', 'cert', /must be object/],
    ['an extra member', { ...cert, note: 'x' }, /must NOT have additional properties \(note\)/],
    [
      'an extra payload member',
      { ...cert, payload: { ...cert.payload, expires: 'never' } },
      /\/payload must NOT have additional properties \(expires\)/,
    ],
    [
      'a quick tier',
      { ...cert, payload: { ...cert.payload, tier: 'quick' } },
      /\/payload\/tier must be equal to constant/,
    ],
    [
      'no results',
      { ...cert, payload: { ...cert.payload, results: [] } },
      /\/payload\/results must NOT have fewer than 1 items/,
    ],
    [
      'observed values on a passing result (only failed and errored results carry them)',
      {
        ...cert,
        payload: {
          ...cert.payload,
          results: cert.payload.results.map((r) => (r.outcome === 'pass' ? { ...r, observed: { 'a.b': 1 } } : r)),
        },
      },
      /\/payload\/results\/\d+\/observed boolean schema is false/,
    ],
    [
      'an upper-case domain',
      { ...cert, payload: { ...cert.payload, domain: 'Good.test' } },
      /\/payload\/domain must match pattern/,
    ],
    [
      'a bad timestamp',
      { ...cert, payload: { ...cert.payload, observed_at: 'yesterday' } },
      /\/payload\/observed_at must match format "date-time"/,
    ],
    [
      'an http issuer',
      { ...cert, payload: { ...cert.payload, issuer: { ...cert.payload.issuer, base_url: 'http://dvs.example.net' } } },
      /base_url must match pattern/,
    ],
    ['an attached JWS', { ...cert, jws: cert.jws.replace('..', '.e30.') }, /\/jws must match pattern/],
  ])('stops at the structure check for %s', async (_name, value, message) => {
    const checks = await verifyCertificate(value, { jwks });
    expect(checks).toEqual([{ name: 'structure', ok: false, detail: stringMatching(message) }]);
  });

  it('catches an id that does not derive from the payload, although the signature is good', async () => {
    const checks = await verifyCertificate(
      resigned((p) => ({ ...p, id: 'dvc_' + '0'.repeat(32) })),
      { jwks },
    );
    expect(outcome(checks)).toMatchObject({ id: false, anchor: true, signature: true });
    expect(detail(checks, 'id')).toBe(`id is dvc_${'0'.repeat(32)}, the payload gives ${cert.payload.id}`);
  });

  it('catches a changed verdict whose id and anchor were left as issued', async () => {
    const checks = await verifyCertificate(
      resigned((p) => ({ ...p, verdict: 'NOT_CONFORMANT' })),
      { jwks },
    );
    expect(outcome(checks)).toMatchObject({ id: false, anchor: false, signature: true });
  });

  it('catches an anchor record for another name or value', async () => {
    const otherName = await verifyCertificate(
      resigned((p) => ({ ...p, anchor: { ...p.anchor, name: '_agent-validation.evil.test' } })),
      { jwks },
    );
    expect(outcome(otherName)).toMatchObject({ id: true, anchor: false });
    const otherValue = await verifyCertificate(
      resigned((p) => ({ ...p, anchor: { ...p.anchor, value: p.anchor.value.replace(/sha256=./, 'sha256=0') } })),
      { jwks },
    );
    expect(outcome(otherValue)).toMatchObject({ anchor: false });
  });

  it("catches a jwks_url off the issuer's origin", async () => {
    const checks = await verifyCertificate(
      resigned((p) => ({ ...p, issuer: { ...p.issuer, jwks_url: 'https://keys.evil.test/.well-known/jwks.json' } })),
      { jwks },
    );
    expect(outcome(checks)).toMatchObject({ issuer: false, signature: true });
    expect(detail(checks, 'issuer')).toMatch(/expected https:\/\/dvs.example.net\/.well-known\/jwks.json/);
    const offPath = await verifyCertificate(
      resigned((p) => ({ ...p, issuer: { ...p.issuer, jwks_url: 'https://dvs.example.net/jwks.json' } })),
      { jwks },
    );
    expect(outcome(offPath)).toEqual({ structure: false });
  });

  it('refuses an issuer that is not a plain https origin, by the schema (issue 13 item 1)', async () => {
    const forms = [
      'https://localhost:19443@attacker.test',
      'https://user:pw@dvs.example.net',
      'https://dvs.example.net/path',
      'https://dvs.example.net?q=1',
      'https://dvs.example.net#frag',
      'https://DVS.example.net',
      'http://dvs.example.net',
      'https://dvs.example.net:0443',
    ];
    for (const base of forms) {
      const checks = await verifyCertificate(
        resigned((p) => ({ ...p, issuer: { ...p.issuer, base_url: base, jwks_url: `${base}/.well-known/jwks.json` } })),
        { jwks },
      );
      expect(outcome(checks), base).toEqual({ structure: false });
      expect(detail(checks, 'structure'), base).toMatch(/\/payload\/issuer\/base_url must match pattern/);
    }
  });

  it('fails an issuer outside the trust list, and passes one on it', async () => {
    const untrusted = await verifyCertificate(cert, { jwks, trustedIssuers: ['https://other.example'] });
    expect(outcome(untrusted)).toMatchObject({ issuer: false, signature: true });
    expect(detail(untrusted, 'issuer')).toMatch(/https:\/\/dvs.example.net is not a trusted issuer/);
    const trusted = await verifyCertificate(cert, { jwks, trustedIssuers: [BASE_URL] });
    expectEvery(trusted, (c) => c.ok, 'every check passes');
    expect(detail(trusted, 'issuer')).toMatch(/\(trusted\)/);
  });

  it('catches an issuer kid other than the JWS kid', async () => {
    const checks = await verifyCertificate(
      resigned((p) => ({ ...p, issuer: { ...p.issuer, kid: 'another-key' } })),
      { jwks },
    );
    expect(outcome(checks)).toMatchObject({ jws_header: false, signature: true });
    expect(detail(checks, 'jws_header')).toMatch(/JWS kid service-signing-key-v1 is not the issuer's kid another-key/);
  });

  it('reports a payload changed after signing as a bad signature', async () => {
    const checks = await verifyCertificate({ ...cert, payload: { ...cert.payload, score: 100 } }, { jwks });
    expect(outcome(checks)).toMatchObject({ jws_header: true, signature: false });
  });

  it('reports an unknown kid at the header and does not claim the signature was checked', async () => {
    const checks = await verifyCertificate(cert, { jwks: buildJwks((await fixedKey(5, 'other-kid')).publicJwk, []) });
    expect(outcome(checks)).toMatchObject({ jws_header: false, signature: false });
    expect(detail(checks, 'signature')).toMatch(/not checked/);
  });

  it('verifies with a retired key still in the set', async () => {
    const old = await fixedKey(4, 'service-signing-key-v0');
    const oldCert = issueCertificate({ report: reportFixture(), issuer: { baseUrl: BASE_URL }, key: old });
    const set = buildJwks((await fixedKey(6, 'service-signing-key-v2')).publicJwk, [old.publicJwk]);
    expectEvery(await verifyCertificate(oldCert, { jwks: set }), (c) => c.ok, 'every check passes');
  });

  describe('DNS anchors', () => {
    it('fails the subject anchor when the domain publishes nothing, and says what to publish', async () => {
      const checks = await verifyCertificate(cert, { jwks, dns: fakeDns({ [issuer.name]: [[issuer.value]] }) });
      expect(outcome(checks)).toMatchObject({ subject_anchor: false, issuer_anchor: true });
      expect(detail(checks, 'subject_anchor')).toBe(`no TXT record at ${subject.name}; publish "${subject.value}"`);
    });

    it('fails the subject anchor when the domain publishes another certificate', async () => {
      const other = subjectAnchorRecord(
        issueCertificate({ report: reportFixture({ score: 10 }), issuer: { baseUrl: BASE_URL }, key }).payload,
      );
      const checks = await verifyCertificate(cert, {
        jwks,
        dns: fakeDns({ [subject.name]: [[other.value]], [issuer.name]: [[issuer.value]] }),
      });
      expect(outcome(checks)).toMatchObject({ subject_anchor: false });
      expect(detail(checks, 'subject_anchor')).toMatch(/no TXT record at .* matches/);
    });

    it('fails the issuer anchor when it names another key', async () => {
      const stranger = await fixedKey(11);
      const dns = fakeDns({
        [subject.name]: [[subject.value]],
        [issuer.name]: [[issuerAnchorRecord(stranger, BASE_URL).value]],
      });
      expect(outcome(await verifyCertificate(cert, { jwks, dns }))).toMatchObject({
        subject_anchor: true,
        issuer_anchor: false,
      });
    });

    it('accepts an issuer anchor among the records of several keys', async () => {
      const previous = issuerAnchorRecord(await fixedKey(12, 'service-signing-key-v0'), BASE_URL);
      const dns = fakeDns({ [subject.name]: [[subject.value]], [issuer.name]: [[previous.value], [issuer.value]] });
      expect(outcome(await verifyCertificate(cert, { jwks, dns }))).toMatchObject({ issuer_anchor: true });
    });

    it('fails, with the reason, when a lookup fails', async () => {
      const dns = async (): Promise<string[][] | null> => {
        throw new Error('queryTxt ETIMEOUT');
      };
      const checks = await verifyCertificate(cert, { jwks, dns });
      expect(detail(checks, 'subject_anchor')).toBe(`TXT lookup of ${subject.name} failed: queryTxt ETIMEOUT`);
      expect(outcome(checks)).toMatchObject({ subject_anchor: false, issuer_anchor: false });
    });

    it('does not look up the issuer anchor of a key the set does not hold', async () => {
      const dns = fakeDns({ [subject.name]: [[subject.value]] });
      const checks = await verifyCertificate(cert, { jwks: { keys: [] }, dns });
      expect(detail(checks, 'issuer_anchor')).toMatch(/^not checked: no key with kid/);
      expect(dns.asked).toEqual([subject.name]);
    });
  });
});
