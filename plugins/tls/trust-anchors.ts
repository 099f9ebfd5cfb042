// The trust anchors a chain is judged against: the network layer's store (system roots plus DVS_EXTRA_CA) and,
// separately, the Mozilla roots bundled with Node, so facts can say whether a chain ends in a public root.
import { createHash, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { computed } from '../shared/computed.ts';

export interface Anchors {
  /**
   * The store's anchors, parsed on first call, when a chain does not end in an anchor itself. Fingerprints need
   * no parse: parsing the ~145 roots twice for them was a tenth of a second of a cold `dvs scan`.
   */
  all(): X509Certificate[];
  /** SHA-256 fingerprints (lower-case hex) of the store in use. */
  fingerprints: Set<string>;
  /** SHA-256 fingerprints of Node's bundled public roots. */
  public: Set<string>;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g;

export function fingerprint(cert: X509Certificate): string {
  return cert.fingerprint256.replaceAll(':', '').toLowerCase();
}

/** Each certificate block of a store, with its DER bytes. */
function blocks(pems: readonly string[]): { pem: string; der: Buffer }[] {
  return pems.flatMap((pem) =>
    [...pem.matchAll(PEM_BLOCK)].map((m) => ({ pem: m[0], der: Buffer.from(m[1]!, 'base64') })),
  );
}

/** Certificates that parse: an unreadable entry in the store cannot anchor anything, as in OpenSSL. */
function parsed(store: readonly { pem: string }[]): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const { pem } of store) {
    try {
      out.push(new X509Certificate(pem));
    } catch {
      // Skipped, see above.
    }
  }
  return out;
}

/**
 * The SHA-256 of each entry's DER, as Node's fingerprint256 is. No entry is parsed: a fingerprint is only looked
 * up for a certificate that parsed, so an entry that would not parse matches nothing either way.
 */
function fingerprints(store: readonly { der: Buffer }[]): Set<string> {
  return new Set(store.map(({ der }) => createHash('sha256').update(der).digest('hex')));
}

let publicRoots: Set<string> | null = null;
/** Built once per store object: a scan's Net keeps the same `ca` array, and so does every scan of a process. */
export const anchorsFor = computed((ca: readonly string[]): Anchors => {
  publicRoots ??= fingerprints(blocks(rootCertificates));
  const store = blocks(ca);
  let all: X509Certificate[] | null = null;
  return { all: () => (all ??= parsed(store)), fingerprints: fingerprints(store), public: publicRoots };
});

/** The anchor that is `cert` itself or issued it, if any. */
export function anchorOf(cert: X509Certificate, anchors: Anchors): X509Certificate | null {
  if (anchors.fingerprints.has(fingerprint(cert))) return cert;
  return anchors.all().find((a) => cert.checkIssued(a) && cert.verify(a.publicKey)) ?? null;
}
