// The certificate payload and its content-derived identity. The id and the DNS anchor value are both derived
// from the payload, so they cannot be part of what they are derived from: the "core" is the payload without
// them, and its canonical SHA-256 gives both (the anchor carries the whole digest, the id its first half).
import type { Certificate, Payload, Result } from '../lib/schema-types/certificate.ts';
import { digestOf } from '../lib/canonical-json.ts';

// What the service writes and a verifier reads is schemas/certificate.schema.json's; these name its parts.
export type { Certificate };
export type CertificatePayload = Payload;
/** One rule's outcome as a certificate states it: `observed` only for `fail` and `error`. */
export type CertifiedResult = Result;
/** The TXT record the domain owner publishes to anchor this certificate in their DNS. */
export type AnchorRecord = Payload['anchor'];
export type CertificateCore = Omit<CertificatePayload, 'id' | 'anchor'>;

const CERTIFICATE_ID_PREFIX = 'dvc_';

/** The payload without its derived members (works on a core too). */
export function coreOf(payload: CertificateCore | CertificatePayload): CertificateCore {
  const { id: _id, anchor: _anchor, ...core } = payload as CertificatePayload;
  return core;
}

/** The core digest (hex SHA-256 of its canonical JSON) and the id taken from it. */
export function identityOf(payload: CertificateCore | CertificatePayload): { id: string; digest: string } {
  const digest = digestOf(coreOf(payload));
  return { id: CERTIFICATE_ID_PREFIX + digest.slice(0, 32), digest };
}
