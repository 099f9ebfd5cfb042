// The certificate `npm start` serves when none is configured: self-signed for localhost, made once in the data
// directory (key file mode 0600) and reused, so a browser exception or a pinned CA survives restarts. `dvs verify`
// reads the same file to trust the local service. The certificate is made by localhost-certificate-maker.ts, apart
// so that the X.509 library is loaded only when there is a certificate to make.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { privateDir, tightenExisting } from '../lib/private-files.ts';
import type { TlsMaterial } from './localhost-certificate-maker.ts';

export type { TlsMaterial };

export const localCertificateFile = (dataDir: string): string => path.join(dataDir, 'tls', 'localhost-cert.pem');

/** Loads `<dataDir>/tls/localhost-{cert,key}.pem`, creating them on first start. */
export async function selfSignedForLocalhost(dataDir: string, now: Date = new Date()): Promise<TlsMaterial> {
  const dir = path.join(dataDir, 'tls');
  const certFile = localCertificateFile(dataDir);
  const keyFile = path.join(dir, 'localhost-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    tightenExisting([certFile, keyFile]);
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  }
  const { makeLocalhostCertificate } = await import('./localhost-certificate-maker.ts');
  const material = await makeLocalhostCertificate(now);
  privateDir(dir);
  writeFileSync(keyFile, material.key, { mode: 0o600 });
  writeFileSync(certFile, material.cert, { mode: 0o600 });
  return material;
}
