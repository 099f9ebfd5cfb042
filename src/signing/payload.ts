// The certificate payload and its content-derived identity. The id and the DNS anchor value are both derived
// from the payload, so they cannot be part of what they are derived from: the "core" is the payload without
// them, and its canonical SHA-256 gives both (the anchor carries the whole digest, the id its first half).
import type { Level, Outcome, Verdict } from '../lib/judgement.ts';
import type { LogInclusion } from '../lib/schema-types/api/log-inclusion.ts';
import { digestOf } from '../lib/canonical-json.ts';

export interface CertifiedResult {
  id: string;
  version: number;
  level: Level;
  outcome: Outcome;
  /** For `fail` and `error` only: the values the rule read, as the report gives them. */
  observed?: Record<string, unknown>;
}

export interface AnchorRecord {
  name: string;
  type: 'TXT';
  value: string;
}

export interface CertificatePayload {
  type: 'dvs.certificate';
  version: 1;
  /** `dvc_` + the first 32 hex digits of the core digest. */
  id: string;
  domain: string;
  verdict: Verdict;
  score: number;
  tier: 'full';
  ruleset: { version: string; digest: string };
  engine: string;
  observed_at: string;
  /** When the issuer signed it (RFC 3339, UTC). */
  issued_at: string;
  /** The end of its validity: observed_at plus the issuer's certificate lifetime. */
  expires_at: string;
  evidence_digest: string;
  /** One per rule of the full tier, ordered by rule id. */
  results: CertifiedResult[];
  issuer: { base_url: string; jwks_url: string; kid: string };
  /** The TXT record the domain owner publishes to anchor this certificate in their DNS. */
  anchor: AnchorRecord;
}

export type CertificateCore = Omit<CertificatePayload, 'id' | 'anchor'>;

/** What the service writes and a verifier reads: the payload and its detached JWS. */
export interface Certificate {
  payload: CertificatePayload;
  jws: string;
  /** A Full Validation's answer adds the proof that {payload, jws} is in the issuer's transparency log. */
  log?: LogInclusion;
}

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
