// Makes the self-signed localhost certificate (localhost-certificate.ts decides when, and keeps it). Its own module,
// imported only when a certificate is made: @peculiar/x509 and the reflect-metadata it needs are some 0.8 MB
// bundled and cost a process about 130 ms of CPU to load.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface TlsMaterial {
  cert: string;
  key: string;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

export async function makeLocalhostCertificate(now: Date): Promise<TlsMaterial> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(12))).toString('hex'),
    name: 'CN=localhost, O=Domain Validation Service (local)',
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 397 * 86_400_000),
    keys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
    ],
  });
  return {
    cert: cert.toString('pem') + '\n',
    key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
  };
}
