// The certificate `npm start` serves when none is configured: self-signed for localhost, made once in the data
// directory (key file mode 0600) and reused, so a browser exception or a pinned CA survives restarts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateDir, tightenExisting } from '../lib/private-files.ts';
import { localCertificateFile } from './local-certificate.ts';
import type { TlsMaterial } from './self-signed-certificate.ts';

export type { TlsMaterial };

/** Loads `<dataDir>/tls/{cert,key}.pem`, creating them on first start. */
export async function selfSignedForLocalhost(dataDir: string, now: Date = new Date()): Promise<TlsMaterial> {
  const dir = path.join(dataDir, 'tls');
  const certFile = localCertificateFile(dataDir);
  const keyFile = path.join(dir, 'localhost-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    tightenExisting([certFile, keyFile]);
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  }
  // The X.509 library (and the reflect-metadata it needs) is loaded only when there is a certificate to make.
  const { selfSignedCertificate } = await import('./self-signed-certificate.ts');
  const material = await selfSignedCertificate(now);
  privateDir(dir);
  writeFileSync(keyFile, material.key, { mode: 0o600 });
  writeFileSync(certFile, material.cert, { mode: 0o600 });
  return material;
}
