// Generated from schemas/certificate.schema.json by `npm run types`; edit the schema, not this file.

import type { LogInclusion } from './api/log-inclusion.ts';

/**
 * The validated domain: lower case, A-labels (punycode), no trailing dot.
 */
export type Domain = string;
/**
 * Lower-case hex SHA-256.
 */
export type Sha256 = string;

/**
 * A Full Validation certificate: the payload (signed as RFC 8785 canonical JSON) and its detached JWS (RFC 7515 appendix F, alg Ed25519 of RFC 9864, or EdDSA of RFC 8037 for certificates issued before the move; both are Ed25519 signatures). Verify by re-attaching base64url(canonical(payload)) as the JWS payload and using the issuer's JWK set.
 */
export interface Certificate {
  payload: Payload;
  /**
   * Detached compact JWS: base64url(protected header), an empty payload part, base64url(64-byte Ed25519 signature).
   */
  jws: string;
  /**
   * Where a Full Validation returns it: the proof that the certificate {payload, jws} is in the issuer's transparency log, against a signed tree head. Not part of what the JWS signs.
   */
  log?: LogInclusion;
}
export interface Payload {
  type: 'dvs.certificate';
  version: 1;
  /**
   * dvc_ and the first 32 hex digits of the SHA-256 of the canonical payload without id and anchor (the core).
   */
  id: string;
  domain: Domain;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  /**
   * 0-100, in the verdict's band: 50 or more exactly when CERTIFIED (then 50 plus half the share of applicable recommended rules that pass), otherwise 49 times the 3:1 required/recommended weighted share of applicable rules that pass. The formula is the engine's (docs/rules.md, The score).
   */
  score: number;
  tier: 'full';
  ruleset: {
    version: string;
    digest: Sha256;
  };
  /**
   * Name and version of the evaluator.
   */
  engine: string;
  /**
   * When the observations were collected (ISO 8601, UTC).
   */
  observed_at: string;
  /**
   * When the issuer signed the certificate (RFC 3339, UTC).
   */
  issued_at: string;
  /**
   * The end of the certificate's validity: observed_at plus the issuer's certificate lifetime (90 days by default). A relying party treats the certificate as expired from this moment on.
   */
  expires_at: string;
  evidence_digest: Sha256;
  /**
   * One per rule of the full tier, ordered by rule id.
   *
   * @minItems 1
   */
  results: [Result, ...Result[]];
  issuer: {
    /**
     * The issuing service's plain https origin: scheme, lower-case host and optional port; no user-info, path, query or fragment.
     */
    base_url: string;
    /**
     * base_url + /.well-known/jwks.json
     */
    jwks_url: string;
    /**
     * The signing key's id in the JWK set; equals the JWS header's kid.
     */
    kid: string;
  };
  /**
   * The TXT record the domain owner publishes to anchor this certificate.
   */
  anchor: {
    name: string;
    type: 'TXT';
    value: string;
  };
}
/**
 * The outcome of one rule.
 */
export interface Result {
  id: string;
  version: number;
  level: 'required' | 'recommended' | 'informational';
  outcome: 'pass' | 'fail' | 'not_applicable' | 'error';
  /**
   * Only on a failed or errored result: the values the rule read, by observation path, each cut to a bounded size (null where the evidence has none).
   */
  observed?: {
    [k: string]: unknown | undefined;
  };
}
