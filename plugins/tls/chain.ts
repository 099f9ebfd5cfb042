// Certificate facts from a handshake: the leaf, its issuers as Node linked them, and how they verified.
import type { Hash } from '../../src/lib/schema-types/observations/tls.ts';
import { X509Certificate } from 'node:crypto';
import type { TlsHandshake } from '../../src/net/types.ts';
import { describeCertificate, type CertificateFacts } from './parse-certificate.ts';
import { anchorOf, fingerprint, type Anchors } from './trust-anchors.ts';

export interface ChainEntry {
  subject: string;
  issuer: string;
  sha256: string;
  not_after: string;
  signature_algorithm: string;
  signature_hash: Hash;
  key_type: string | null;
  key_bits: number | null;
  self_signed: boolean;
  is_ca: boolean;
  trust_anchor: boolean;
}

export interface ChainFacts {
  chain_verified: boolean | null;
  authorization_error: string | null;
  chain_reaches_anchor: boolean | null;
  anchor_public: boolean | null;
  hostname_match: boolean | null;
  leaf: CertificateFacts | null;
  chain: ChainEntry[];
}

/** Node reports a name mismatch only after the chain itself verified, so that code means "chain fine, name not". */
const NAME_MISMATCH = 'ERR_TLS_CERT_ALTNAME_INVALID';

/** A host-name match on dNSName entries only (RFC 9525 section 6.3 drops the subject CN fallback). */
function matchesHost(cert: X509Certificate, host: string): boolean {
  return cert.checkHost(host, { subject: 'never' }) !== undefined;
}

/** What a chain is judged from: the certificates a handshake received and how the network layer verified them. */
export type VerifiedChain = Pick<TlsHandshake, 'chain' | 'authorized' | 'authorizationError'>;

export function chainFacts(seen: VerifiedChain, host: string, anchors: Anchors): ChainFacts {
  const ders = seen.chain;
  // Each certificate parsed once for every use below: a parse costs about 0.2 ms here.
  const certs = ders.map((der) => new X509Certificate(der));
  const verified = seen.authorized || seen.authorizationError === NAME_MISMATCH;
  const last = certs.at(-1);
  const anchor = last ? anchorOf(last, anchors) : null;
  const described = ders.map((der, i) => describeCertificate(der, certs[i]));
  const chain = described.map((c): ChainEntry => {
    return {
      subject: c.subject,
      issuer: c.issuer,
      sha256: c.sha256,
      not_after: c.not_after,
      signature_algorithm: c.signature_algorithm,
      signature_hash: c.signature_hash,
      key_type: c.key_type,
      key_bits: c.key_bits,
      self_signed: c.self_signed,
      is_ca: c.is_ca,
      trust_anchor: anchors.fingerprints.has(c.sha256),
    };
  });
  return {
    chain_verified: verified,
    authorization_error: seen.authorized ? null : seen.authorizationError,
    chain_reaches_anchor: last ? anchor !== null : null,
    anchor_public: anchor ? anchors.public.has(fingerprint(anchor)) : null,
    hostname_match: certs[0] ? matchesHost(certs[0], host) : null,
    leaf: described[0] ?? null,
    chain,
  };
}
