// The DER walk that reads certificates' names, validity and extensions, held to @peculiar/x509 (an ASN.1
// schema implementation, kept as the tests' reference and the world's certificate maker) on names built byte by
// byte and on certificates that library generates.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { nameField, nameText } from '../../../plugins/tls/certificate-fields.ts';
import { children, readTlv } from '../../../plugins/tls/der.ts';
import { describeCertificate } from '../../../plugins/tls/parse-certificate.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** A DER TLV with a definite length. */
function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, value]);
}

function oidBytes(oid: string): Buffer {
  const [a = 0, b = 0, ...rest] = oid.split('.').map(Number);
  const out = [a * 40 + b];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift((v & 0x7f) | 0x80);
    out.push(...groups);
  }
  return Buffer.from(out);
}

const TYPES = [
  '2.5.4.3',
  '2.5.4.6',
  '2.5.4.10',
  '2.5.4.11',
  '0.9.2342.19200300.100.1.25',
  '1.2.840.113549.1.9.1',
  '2.5.4.4',
  '2.5.4.5',
  '1.3.6.1.4.1.311.60.2.1.3',
];

/** Text without control characters (the reference escapes only the first of them; see the test below). */
const text = (unit: fc.Arbitrary<string>) =>
  fc.string({ unit, maxLength: 12 }).filter((s) => !/[^\x20-\x7e\x80-\u{10ffff}]/u.test(s));
const printable = fc.constantFrom(..."AZaz09 '()+,-./:=?".split(''), 'Q', 'r', '5');
const ascii = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const latin1 = fc.oneof(
  ascii,
  fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)),
);
/** A BMP character that is neither a control character (DEL and C1 as well, as `text` holds) nor a surrogate. */
const bmp = fc.integer({ min: 0x20, max: 0xfffd }).filter((c) => (c < 0x7f || c > 0x9f) && (c < 0xd800 || c > 0xdfff));

/** An attribute value of one of the string types, or of a type with no string form. */
const attributeValue: fc.Arbitrary<Buffer> = fc.oneof(
  text(fc.constantFrom(...'ab,+"\\<>;# é中😀'.split(''), 'x')).map((s) => tlv(0x0c, Buffer.from(s, 'utf8'))),
  text(printable).map((s) => tlv(0x13, Buffer.from(s, 'latin1'))),
  text(ascii).map((s) => tlv(0x16, Buffer.from(s, 'latin1'))),
  text(latin1).map((s) => tlv(0x14, Buffer.from(s, 'latin1'))),
  fc.array(bmp, { maxLength: 8 }).map((cs) => tlv(0x1e, Buffer.from(String.fromCharCode(...cs), 'utf16le').swap16())),
  fc.array(bmp, { maxLength: 8 }).map((cs) => {
    const b = Buffer.alloc(cs.length * 4);
    cs.forEach((c, i) => b.writeUInt32BE(c, i * 4));
    return tlv(0x1c, b);
  }),
  text(ascii).map((s) => tlv(0x1a, Buffer.from(s, 'latin1'))),
  fc.integer({ min: 0, max: 1000 }).map((n) => tlv(0x02, Buffer.from([n >> 8, n & 0xff]))),
);

const nameDer: fc.Arbitrary<Buffer> = fc
  .array(
    fc.array(
      fc
        .tuple(fc.constantFrom(...TYPES), attributeValue)
        .map(([oid, value]) => tlv(0x30, Buffer.concat([tlv(0x06, oidBytes(oid)), value]))),
      { minLength: 1, maxLength: 3 },
    ),
    { maxLength: 4 },
  )
  .map((rdns) => tlv(0x30, Buffer.concat(rdns.map((atvs) => tlv(0x31, Buffer.concat(atvs))))));

describe('names', () => {
  it('reads every name as the reference does', () => {
    fc.assert(
      fc.property(nameDer, (der) => {
        const reference = new x509.Name(der);
        expect(nameText(readTlv(der))).toBe(reference.toString());
        expect(nameField(readTlv(der), '2.5.4.3')).toBe(reference.getField('CN')[0] ?? null);
      }),
      { numRuns: 500 },
    );
  });

  it('escapes every control character as a hex pair, as RFC 4514 allows', () => {
    const der = tlv(
      0x30,
      tlv(0x31, tlv(0x30, Buffer.concat([tlv(0x06, oidBytes('2.5.4.3')), tlv(0x0c, Buffer.from('a\nb\tc\u0000'))]))),
    );
    expect(nameText(readTlv(der))).toBe('CN=a\\0Ab\\09c\\00');
  });
});

/** The facts the walk replaced, as the reference reads them. */
function referenceFacts(der: Buffer) {
  const cert = new x509.X509Certificate(der);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const aia = cert.getExtension(x509.AuthorityInfoAccessExtension);
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  const crl = cert.getExtension(x509.CRLDistributionPointsExtension);
  return {
    subject: cert.subject,
    subject_cn: cert.subjectName.getField('CN')[0] ?? null,
    issuer: cert.issuer,
    issuer_cn: cert.issuerName.getField('CN')[0] ?? null,
    not_before: cert.notBefore.toISOString(),
    not_after: cert.notAfter.toISOString(),
    sans: (san?.names.items ?? [])
      .filter((n) => n.type === 'dns')
      .map((n) => n.value.toLowerCase().replace(/\.$/, ''))
      .sort(),
    ocsp_urls: (aia?.ocsp ?? [])
      .filter((n) => n.type === 'url')
      .map((n) => n.value)
      .sort(),
    crl_urls: (crl?.distributionPoints ?? [])
      .flatMap((p) => p.distributionPoint?.fullName ?? [])
      .flatMap((n) => (n.uniformResourceIdentifier ? [n.uniformResourceIdentifier] : []))
      .sort(),
    extended_key_usage: eku ? Array.from(eku.usages, String).sort() : null,
  };
}

describe('certificates', () => {
  let keys: webcrypto.CryptoKeyPair;
  beforeAll(async () => {
    keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  });

  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
  const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join('.'));
  const url = host.map((h) => `http://${h}/x`);
  const seconds = (from: string, to: string) =>
    fc.integer({ min: Date.parse(from) / 1000, max: Date.parse(to) / 1000 }).map((s) => new Date(s * 1000));

  it('reads a validity time in a form DER forbids (an offset) as node:crypto reads it', async () => {
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=a.test',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      keys,
    });
    const [tbs, algorithm, signature] = children(readTlv(Buffer.from(cert.rawData)).value);
    const fields = children(tbs!.value);
    // version, serial, signature algorithm, issuer, then validity: notBefore becomes 01:00 at +01:00.
    const notAfter = children(fields[4]!.value)[1]!;
    const validity = tlv(0x30, Buffer.concat([tlv(0x17, Buffer.from('2601010100+0100')), notAfter.raw]));
    const patchedTbs = tlv(0x30, Buffer.concat(fields.map((f, i) => (i === 4 ? validity : f.raw))));
    const der = tlv(0x30, Buffer.concat([patchedTbs, algorithm!.raw, signature!.raw]));
    expect(describeCertificate(der)).toMatchObject({
      not_before: '2026-01-01T00:00:00.000Z',
      not_after: '2027-01-01T00:00:00.000Z',
    });
  });

  it('reads names, validity and extensions as the reference does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          subject: fc.constantFrom('CN=a.test', 'CN=b.test, O=Org\\, Inc.', 'O=No Common Name', 'CN=x+OU=y, C=DE'),
          notBefore: seconds('1951-01-01', '2049-12-31'),
          notAfter: seconds('1990-01-01', '2120-01-01'),
          dns: fc.array(
            host.map((h) => (h.length % 3 === 0 ? `${h.toUpperCase()}.` : h)),
            { maxLength: 4 },
          ),
          ocsp: fc.option(fc.array(url, { minLength: 1, maxLength: 2 })),
          crl: fc.option(fc.array(url, { minLength: 1, maxLength: 2 })),
          eku: fc.option(fc.subarray(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.9'])),
        }),
        async (c) => {
          const extensions: x509.Extension[] = [];
          if (c.dns.length > 0)
            extensions.push(new x509.SubjectAlternativeNameExtension(c.dns.map((value) => ({ type: 'dns', value }))));
          if (c.ocsp) extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp: c.ocsp }));
          if (c.crl) extensions.push(new x509.CRLDistributionPointsExtension(c.crl));
          if (c.eku) extensions.push(new x509.ExtendedKeyUsageExtension(c.eku));
          const cert = await x509.X509CertificateGenerator.create({
            serialNumber: '01',
            subject: c.subject,
            issuer: 'CN=Issuer, O=Test CA',
            notBefore: c.notBefore,
            notAfter: c.notAfter,
            signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
            publicKey: keys.publicKey,
            signingKey: keys.privateKey,
            extensions,
          });
          const der = Buffer.from(cert.rawData);
          expect(describeCertificate(der)).toMatchObject(referenceFacts(der));
        },
      ),
      { numRuns: 40 },
    );
  });
});
