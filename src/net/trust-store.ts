// The certificates a scanned host's chain is checked against: the roots Node ships plus the PEM file named by
// DVS_EXTRA_CA (the fixture internet's test CA, or an operator's private root). Node's `ca` option replaces
// the default roots, so both are always passed together.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function loadTrustStore(extraCaFile: string | null): string[] {
  if (extraCaFile === null) return [...rootCertificates];
  const extra = readFileSync(extraCaFile, 'utf8').match(PEM_CERTIFICATE) ?? [];
  if (extra.length === 0) throw new Error(`DVS_EXTRA_CA ${extraCaFile}: no PEM certificate found`);
  return [...rootCertificates, ...extra];
}
