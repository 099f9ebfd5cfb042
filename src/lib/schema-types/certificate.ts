// Generated from schemas/certificate.schema.json by `npm run types`; edit the schema, not this file.

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
/**
 * Proof that a certificate is in the transparency log: its leaf is the certificate's canonical JSON {payload, jws} (the body GET /api/certificates/{id} serves), its leaf hash SHA-256(0x00 || leaf), and the inclusion path (RFC 9162 section 2.1.3) leads to the root hash of the signed tree head.
 */
export interface LogInclusion {
  certificate_id: string;
  /**
   * The certificate's position in the log, from 0.
   */
  leaf_index: number;
  /**
   * The size of the tree the path leads to: tree_head.tree_size.
   */
  tree_size: number;
  /**
   * The sibling subtree hashes from the leaf upwards, lower-case hex.
   *
   * @maxItems 64
   */
  inclusion_path: string[];
  tree_head: TreeHead;
}
/**
 * A signed tree head of the certificate transparency log (RFC 9162 section 2.1 hashing). The signature is a detached JWS (typ dvs-tree-head+jws, alg Ed25519 (EdDSA before RFC 9864's identifier was adopted), kid of a key in /.well-known/jwks.json) over the RFC 8785 canonical JSON of this object without signature: {"root_hash":...,"timestamp":...,"tree_size":...}.
 */
export interface TreeHead {
  /**
   * How many certificates the log held.
   */
  tree_size: number;
  /**
   * MTH of the first tree_size leaves, lower-case hex (SHA-256 of the empty string for an empty log).
   */
  root_hash: string;
  /**
   * When the service first signed a head of this size (RFC 3339, UTC).
   */
  timestamp: string;
  /**
   * Detached compact JWS: base64url(protected header), an empty payload part, base64url(64-byte Ed25519 signature).
   */
  signature: string;
}
