import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildClientHello, SSL3, SUITE_CLASSES, TLS12 } from '../../../plugins/tls/client-hello.ts';
import { oidText, readTlv } from '../../../plugins/tls/der.ts';
import { featureFacts } from '../../../plugins/tls/collect-features.ts';
import { rawAcceptance } from '../../../plugins/tls/collect-ciphers.ts';
import { describeCertificate, sctLogIds } from '../../../plugins/tls/parse-certificate.ts';
import { parseServerReply } from '../../../plugins/tls/parse-server-reply.ts';
import { suiteFacts } from '../../../plugins/tls/suite-facts.ts';
import { ssl3Acceptance } from '../../../plugins/tls/collect-versions.ts';

/** A ServerHello record as a server would send it. */
function serverHello(version: number, suite: number, compression: number, extensions: number[]): Buffer {
  const exts = Buffer.concat(extensions.map((t) => Buffer.from([t >> 8, t & 0xff, 0, 1, 0])));
  const body = Buffer.concat([
    Buffer.from([version >> 8, version & 0xff]),
    Buffer.alloc(32, 7),
    Buffer.from([0]),
    Buffer.from([suite >> 8, suite & 0xff, compression]),
    Buffer.from([exts.length >> 8, exts.length & 0xff]),
    exts,
  ]);
  const hs = Buffer.concat([Buffer.from([2, 0, body.length >> 8, body.length & 0xff]), body]);
  return Buffer.concat([Buffer.from([22, 3, 3, hs.length >> 8, hs.length & 0xff]), hs]);
}

describe('suiteFacts', () => {
  it.each([
    ['TLS_AES_128_GCM_SHA256', 'ecdhe', true, true],
    ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ecdhe', true, true],
    ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ecdhe', true, false],
    ['TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'dhe', true, true],
    ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'rsa', false, true],
    ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'rsa', false, false],
    ['TLS_ECDH_RSA_WITH_AES_128_CBC_SHA', 'ecdh', false, false],
    ['TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8', 'ecdhe', true, true],
  ])('%s', (name, kx, fs, aead) => {
    expect(suiteFacts(name)).toEqual({ key_exchange: kx, forward_secret: fs, aead });
  });
});

describe('der', () => {
  it('reads OIDs, including multi-byte arcs', () => {
    expect(oidText(Buffer.from('2a864886f70d01010b', 'hex'))).toBe('1.2.840.113549.1.1.11');
    expect(oidText(Buffer.from('2b06010401d679020402', 'hex'))).toBe('1.3.6.1.4.1.11129.2.4.2');
  });
  it('reads long-form lengths and refuses truncation', () => {
    const long = Buffer.concat([Buffer.from([0x04, 0x81, 0x80]), Buffer.alloc(0x80, 1)]);
    expect(readTlv(long).value.length).toBe(0x80);
    expect(() => readTlv(long.subarray(0, 10))).toThrow();
  });
});

describe('sctLogIds', () => {
  it('lists the distinct log ids of an SCT list', () => {
    const sct = (id: number): Buffer =>
      Buffer.concat([Buffer.from([0, 0x30]), Buffer.from([0]), Buffer.alloc(32, id), Buffer.alloc(15, 0)]);
    const list = Buffer.concat([sct(1), sct(2), sct(1)]);
    const tls = Buffer.concat([Buffer.from([list.length >> 8, list.length & 0xff]), list]);
    const octets = Buffer.concat([Buffer.from([0x04, 0x81, tls.length]), tls]);
    expect(sctLogIds(octets)).toEqual(
      [Buffer.alloc(32, 1).toString('base64'), Buffer.alloc(32, 2).toString('base64')].sort(),
    );
  });
});

describe('describeCertificate', () => {
  it('reads names, key, signature and the extensions Node 20 does not parse', async () => {
    const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '0a1b',
      name: 'CN=Shop.Example.Test',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2026-04-01T00:00:00Z'),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-384' },
      keys,
      extensions: [
        new x509.SubjectAlternativeNameExtension([
          { type: 'dns', value: 'WWW.shop.example.test' },
          { type: 'dns', value: 'shop.example.test' },
        ]),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.AuthorityInfoAccessExtension({ ocsp: ['http://ocsp.example.test'] }),
        new x509.CRLDistributionPointsExtension(['http://crl.example.test/ca.crl']),
        new x509.Extension('1.3.6.1.5.5.7.1.24', false, Buffer.from('3003020105', 'hex')),
      ],
    });
    const facts = describeCertificate(Buffer.from(cert.rawData));
    expect(facts).toMatchObject({
      subject_cn: 'Shop.Example.Test',
      serial: '0A1B',
      not_before: '2026-01-01T00:00:00.000Z',
      not_after: '2026-04-01T00:00:00.000Z',
      sans: ['shop.example.test', 'www.shop.example.test'],
      key_type: 'ec',
      key_bits: 384,
      key_curve: 'secp384r1',
      signature_algorithm: 'ecdsa-with-SHA384',
      signature_hash: 'sha384',
      self_signed: true,
      must_staple: true,
      sct_log_ids: [],
      ocsp_urls: ['http://ocsp.example.test'],
      crl_urls: ['http://crl.example.test/ca.crl'],
      extended_key_usage: ['1.3.6.1.5.5.7.3.1'],
    });
    expect(facts.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('recognises SHA-1 signatures', async () => {
    const keys = await webcrypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-1' },
      true,
      ['sign', 'verify'],
    );
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=old.test',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2030-01-01T00:00:00Z'),
      signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5' },
      keys,
    });
    expect(describeCertificate(Buffer.from(cert.rawData))).toMatchObject({
      signature_hash: 'sha1',
      key_type: 'rsa',
      key_bits: 2048,
      must_staple: false,
      extended_key_usage: null,
    });
  });
});

describe('ClientHello and ServerHello', () => {
  it('builds a deterministic TLS 1.2 hello carrying the offered suites', () => {
    const a = buildClientHello({ version: TLS12, suites: SUITE_CLASSES.rc4, servername: 'a.test', seed: 's' });
    expect(a).toEqual(buildClientHello({ version: TLS12, suites: SUITE_CLASSES.rc4, servername: 'a.test', seed: 's' }));
    expect([...a.subarray(0, 3)]).toEqual([22, 3, 1]);
    expect(a.readUInt16BE(3)).toBe(a.length - 5);
    expect(a[5]).toBe(1);
    expect(a.readUInt16BE(9)).toBe(TLS12);
    expect(a.includes(Buffer.from('a.test'))).toBe(true);
  });

  it('builds an SSL 3.0 hello without extensions', () => {
    const h = buildClientHello({ version: SSL3, suites: SUITE_CLASSES.ssl3, servername: 'a.test', seed: 's' });
    expect(h.readUInt16BE(1)).toBe(SSL3);
    expect(h.includes(Buffer.from('a.test'))).toBe(false);
  });

  it('parses a ServerHello whatever the chunking', () => {
    const bytes = serverHello(TLS12, 0xc02b, 0, [0xff01, 0x0017]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), (cut) => {
        expect(parseServerReply(bytes.subarray(0, cut)).kind).toBe('incomplete');
      }),
    );
    expect(parseServerReply(bytes)).toEqual({
      kind: 'server_hello',
      version: TLS12,
      suite: 0xc02b,
      compression: 0,
      extensions: [0x0017, 0xff01],
    });
  });

  it('parses alerts and refuses what is not TLS', () => {
    expect(parseServerReply(Buffer.from([21, 3, 3, 0, 2, 2, 40]))).toEqual({
      kind: 'alert',
      level: 2,
      description: 40,
    });
    expect(parseServerReply(Buffer.from('HTTP/1.1 400 Bad Request\r\n')).kind).toBe('unexpected');
  });
});

describe('facts from hand-built hellos', () => {
  const hello = (version: number, suite: number) => ({ reply: parseServerReply(serverHello(version, suite, 0, [])) });
  it('SSL 3.0 counts only when the server stays at 3.0', () => {
    expect(ssl3Acceptance(hello(SSL3, 0x002f))).toBe(true);
    expect(ssl3Acceptance(hello(0x0301, 0x002f))).toBe(false);
    expect(ssl3Acceptance({ reply: { kind: 'closed' } })).toBe(false);
    expect(ssl3Acceptance({ error: 'timeout' })).toBeNull();
  });
  it('a suite class is accepted only when an offered suite is picked', () => {
    expect(rawAcceptance(hello(TLS12, 0x0005), SUITE_CLASSES.rc4)).toBe(true);
    expect(rawAcceptance(hello(TLS12, 0xc02b), SUITE_CLASSES.rc4)).toBeNull();
    expect(rawAcceptance({ reply: { kind: 'alert', level: 2, description: 40 } }, SUITE_CLASSES.rc4)).toBe(false);
  });
  it('reads renegotiation_info, EMS and compression', () => {
    expect(featureFacts({ reply: parseServerReply(serverHello(TLS12, 0xc02b, 1, [0xff01])) })).toEqual({
      reachable: true,
      error: null,
      hello_version: 'TLSv1.2',
      secure_renegotiation: true,
      extended_master_secret: false,
      compression: 'deflate',
    });
    expect(featureFacts({ reply: { kind: 'alert', level: 2, description: 70 } })).toMatchObject({
      reachable: true,
      error: 'alert_70',
      hello_version: null,
    });
  });
});
