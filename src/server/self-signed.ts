// The certificate `npm start` serves when none is configured: self-signed for localhost, made once in the data
// directory (key file mode 0600) and reused, so a browser exception or a pinned CA survives restarts.
import { webcrypto } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateDir, tightenExisting } from '../lib/private-files.ts';
import { localCertificateFile } from './local-certificate.ts';

export interface TlsMaterial {
  cert: string;
  key: string;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

async function create(now: Date): Promise<TlsMaterial> {
  // The X.509 library (and the reflect-metadata it needs) is imported only when there is a certificate to make.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
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

/** Loads `<dataDir>/tls/{cert,key}.pem`, creating them on first start. */
export async function selfSignedForLocalhost(dataDir: string, now: Date = new Date()): Promise<TlsMaterial> {
  const dir = path.join(dataDir, 'tls');
  const certFile = localCertificateFile(dataDir);
  const keyFile = path.join(dir, 'localhost-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    tightenExisting([certFile, keyFile]);
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  }
  const material = await create(now);
  privateDir(dir);
  writeFileSync(keyFile, material.key, { mode: 0o600 });
  writeFileSync(certFile, material.cert, { mode: 0o600 });
  return material;
}
