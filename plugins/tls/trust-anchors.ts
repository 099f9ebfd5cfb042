// The trust anchors a chain is judged against: the network layer's store (system roots plus DVS_EXTRA_CA) and,
// separately, the Mozilla roots bundled with Node, so facts can say whether a chain ends in a public root.
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

export interface Anchors {
  /** Parsed anchors of the store in use. */
  all: X509Certificate[];
  /** SHA-256 fingerprints (lower-case hex) of the store in use. */
  fingerprints: Set<string>;
  /** SHA-256 fingerprints of Node's bundled public roots. */
  public: Set<string>;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function fingerprint(cert: X509Certificate): string {
  return cert.fingerprint256.replaceAll(':', '').toLowerCase();
}

function parsePems(pems: readonly string[]): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const pem of pems) {
    for (const block of pem.match(PEM_BLOCK) ?? []) {
      try {
        out.push(new X509Certificate(block));
      } catch {
        // An unreadable entry in the store cannot anchor anything; skipping it is what OpenSSL does too.
      }
    }
  }
  return out;
}

let publicRoots: Set<string> | null = null;
const cache = new WeakMap<readonly string[], Anchors>();

/** Parsed once per store object: a scan's Net keeps the same `ca` array. */
export function anchorsFor(ca: readonly string[]): Anchors {
  let anchors = cache.get(ca);
  if (!anchors) {
    publicRoots ??= new Set(parsePems(rootCertificates).map(fingerprint));
    const all = parsePems(ca);
    anchors = { all, fingerprints: new Set(all.map(fingerprint)), public: publicRoots };
    cache.set(ca, anchors);
  }
  return anchors;
}

/** The anchor that is `cert` itself or issued it, if any. */
export function anchorOf(cert: X509Certificate, anchors: Anchors): X509Certificate | null {
  if (anchors.fingerprints.has(fingerprint(cert))) return cert;
  return anchors.all.find((a) => cert.checkIssued(a) && cert.verify(a.publicKey)) ?? null;
}
