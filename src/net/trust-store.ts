// The certificates a scanned host's chain is checked against: the roots Node ships plus the PEM file named by
// DVS_EXTRA_CA (the fixture internet's test CA, or an operator's private root). Node's `ca` option replaces
// the default roots, so both are always passed together.
//
// One array per store for the life of the process: what is derived from it (secure contexts, the TLS probe's
// parsed anchors) is cached by the array, and a fresh array per scan had every scan parse the ~150 roots again
// and hold its own copy while it ran. The file is read again only when it changes (size or modification time).
import { readFileSync, statSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

let loaded: { file: string | null; stamp: string; ca: readonly string[] } | null = null;

export function loadTrustStore(extraCaFile: string | null): readonly string[] {
  const stamp = extraCaFile === null ? '' : fileStamp(extraCaFile);
  if (loaded && loaded.file === extraCaFile && loaded.stamp === stamp) return loaded.ca;
  const ca = Object.freeze(extraCaFile === null ? [...rootCertificates] : [...rootCertificates, ...extra(extraCaFile)]);
  loaded = { file: extraCaFile, stamp, ca };
  return ca;
}

function fileStamp(file: string): string {
  const s = statSync(file);
  return `${s.size} ${s.mtimeMs}`;
}

function extra(file: string): string[] {
  const found = readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? [];
  if (found.length === 0) throw new Error(`DVS_EXTRA_CA ${file}: no PEM certificate found`);
  return found;
}
