// Generated from schemas/api/scan-result.json by `npm run types`; edit the schema, not this file.

/**
 * The result of a scan, shaped like an MCP tool result: a readable summary, then the canonical JSON of the report (Quick Scan) or of the signed certificate exactly as the transparency log holds it (Full Validation), then for a logged certificate the canonical JSON of its inclusion proof; structuredContent carries the typed document (for a Full Validation, the certificate and its report). MCP's tools/call returns exactly this object.
 */
export interface ScanResult {
  /**
   * @minItems 1
   */
  content: [
    {
      type: 'text';
      text: string;
    },
    ...{
      type: 'text';
      text: string;
    }[],
  ];
  /**
   * True when the scan could not judge the domain (for example, it does not resolve); the text says why.
   */
  isError?: boolean;
  /**
   * The typed result: the Report of a Quick Scan, or a Full Validation's certificate and report (FullValidationResult); when isError is true, an Error with its code (for example not_resolvable).
   */
  structuredContent: Report | FullValidationResult | Error;
}
/**
 * The engine's judgement of one observations document (a Quick Scan's result): the verdict, the score, how each probe ran and the outcome of every rule of the tier, with the values each rule read. Its canonical JSON is the second content item of a Quick Scan's ScanResult (and its structuredContent) and what `dvs scan --json` / `dvs evaluate --json` print. A Full Validation's certificate states the same judgement.
 */
export interface Report {
  /**
   * An agent-readiness level comparable to isitagentready's 0-5 (Not Ready .. Agent-Native), from this catalogue's outcomes: each of its 18 checks with the status the rules that answer it give (docs/rules.md, Agent-readiness level). It sits beside the verdict and never changes it. Absent from reports made before it was computed.
   */
  agent_readiness?: {
    anchor: 'isitagentready';
    level: number;
    name: 'Not Ready' | 'Basic Web Presence' | 'Bot-Aware' | 'Agent-Readable' | 'Agent-Integrated' | 'Agent-Native';
    /**
     * The anchor's check keys, each pass, fail, neutral (not scored, and nothing to show) or unknown (this scan did not run, or could not judge, the rules that answer it: a Quick Scan for full-tier rules).
     */
    checks: {
      [k: string]: 'pass' | 'fail' | 'neutral' | 'unknown' | undefined;
    };
    /**
     * Present when a check is unknown: the level is what the known checks reach, and may be higher.
     */
    partial?: true;
    /**
     * The next level and what it still needs (check keys, or a group of them); absent at level 5.
     */
    next?: {
      level: number;
      name: string;
      /**
       * @maxItems 8
       */
      needs: string[];
    };
  };
  type: 'dvs.report';
  version: 1;
  /**
   * Name and version of the evaluator.
   */
  engine: string;
  /**
   * The validated domain: lower case, A-labels (punycode), no trailing dot.
   */
  domain: string;
  /**
   * quick: the indicative subset of the rules; full: every rule.
   */
  tier: 'quick' | 'full';
  /**
   * When the observations were collected (ISO 8601, UTC).
   */
  observed_at: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  /**
   * 0-100, in the verdict's band: 50 or more exactly when CERTIFIED (then 50 plus half the share of applicable recommended rules that pass), otherwise 49 times the 3:1 required/recommended weighted share of applicable rules that pass. The formula is the engine's (docs/rules.md, The score).
   */
  score: number;
  ruleset: {
    version: string;
    /**
     * Lower-case hex SHA-256.
     */
    digest: string;
  };
  /**
   * Lower-case hex SHA-256.
   */
  evidence_digest: string;
  /**
   * How many rules ended in each outcome.
   */
  counts: {
    pass: number;
    fail: number;
    not_applicable: number;
    error: number;
  };
  /**
   * How each probe of the scan ended, by probe name.
   */
  probes: {
    [k: string]: 'ok' | 'error' | 'timeout' | 'skipped' | undefined;
  };
  /**
   * One per rule of the tier, ordered by rule id.
   */
  results: Result[];
}
/**
 * The outcome of one rule and the values it read; reason says, for an error, which observation was missing or which probe did not finish.
 */
export interface Result {
  id: string;
  version: number;
  level: 'required' | 'recommended' | 'informational';
  outcome: 'pass' | 'fail' | 'not_applicable' | 'error';
  /**
   * For an error: which required observation was missing or which probe did not finish.
   */
  reason?: string;
  /**
   * The values the rule's `when` and `check` read, by observation path, each cut to a bounded size: strings to 120 characters, lists and objects to 8 items or keys, 3 levels and 40 values (what is cut is marked with an ellipsis); null where the evidence has none.
   */
  observed: {
    [k: string]: unknown | undefined;
  };
}
/**
 * The typed result of a Full Validation: the signed certificate, and the report it was issued from (every result with what it observed, the probes, the summary). A token presented again for the same domain returns the same two documents.
 */
export interface FullValidationResult {
  certificate: Certificate;
  report?: Report1;
}
/**
 * The certificate {payload, jws} of the second content item, with its inclusion proof in the issuer's transparency log as log (the third content item) when the service keeps a log.
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
  /**
   * The validated domain: lower case, A-labels (punycode), no trailing dot.
   */
  domain: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  /**
   * 0-100, in the verdict's band: 50 or more exactly when CERTIFIED (then 50 plus half the share of applicable recommended rules that pass), otherwise 49 times the 3:1 required/recommended weighted share of applicable rules that pass. The formula is the engine's (docs/rules.md, The score).
   */
  score: number;
  tier: 'full';
  ruleset: {
    version: string;
    /**
     * Lower-case hex SHA-256.
     */
    digest: string;
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
  /**
   * Lower-case hex SHA-256.
   */
  evidence_digest: string;
  /**
   * One per rule of the full tier, ordered by rule id.
   *
   * @minItems 1
   */
  results: [Result1, ...Result1[]];
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
export interface Result1 {
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
 * Where a Full Validation returns it: the proof that the certificate {payload, jws} is in the issuer's transparency log, against a signed tree head. Not part of what the JWS signs.
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
/**
 * The engine's judgement of one observations document (a Quick Scan's result): the verdict, the score, how each probe ran and the outcome of every rule of the tier, with the values each rule read. Its canonical JSON is the second content item of a Quick Scan's ScanResult (and its structuredContent) and what `dvs scan --json` / `dvs evaluate --json` print. A Full Validation's certificate states the same judgement.
 */
export interface Report1 {
  /**
   * An agent-readiness level comparable to isitagentready's 0-5 (Not Ready .. Agent-Native), from this catalogue's outcomes: each of its 18 checks with the status the rules that answer it give (docs/rules.md, Agent-readiness level). It sits beside the verdict and never changes it. Absent from reports made before it was computed.
   */
  agent_readiness?: {
    anchor: 'isitagentready';
    level: number;
    name: 'Not Ready' | 'Basic Web Presence' | 'Bot-Aware' | 'Agent-Readable' | 'Agent-Integrated' | 'Agent-Native';
    /**
     * The anchor's check keys, each pass, fail, neutral (not scored, and nothing to show) or unknown (this scan did not run, or could not judge, the rules that answer it: a Quick Scan for full-tier rules).
     */
    checks: {
      [k: string]: 'pass' | 'fail' | 'neutral' | 'unknown' | undefined;
    };
    /**
     * Present when a check is unknown: the level is what the known checks reach, and may be higher.
     */
    partial?: true;
    /**
     * The next level and what it still needs (check keys, or a group of them); absent at level 5.
     */
    next?: {
      level: number;
      name: string;
      /**
       * @maxItems 8
       */
      needs: string[];
    };
  };
  type: 'dvs.report';
  version: 1;
  /**
   * Name and version of the evaluator.
   */
  engine: string;
  /**
   * The validated domain: lower case, A-labels (punycode), no trailing dot.
   */
  domain: string;
  /**
   * quick: the indicative subset of the rules; full: every rule.
   */
  tier: 'quick' | 'full';
  /**
   * When the observations were collected (ISO 8601, UTC).
   */
  observed_at: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  /**
   * 0-100, in the verdict's band: 50 or more exactly when CERTIFIED (then 50 plus half the share of applicable recommended rules that pass), otherwise 49 times the 3:1 required/recommended weighted share of applicable rules that pass. The formula is the engine's (docs/rules.md, The score).
   */
  score: number;
  ruleset: {
    version: string;
    /**
     * Lower-case hex SHA-256.
     */
    digest: string;
  };
  /**
   * Lower-case hex SHA-256.
   */
  evidence_digest: string;
  /**
   * How many rules ended in each outcome.
   */
  counts: {
    pass: number;
    fail: number;
    not_applicable: number;
    error: number;
  };
  /**
   * How each probe of the scan ended, by probe name.
   */
  probes: {
    [k: string]: 'ok' | 'error' | 'timeout' | 'skipped' | undefined;
  };
  /**
   * One per rule of the tier, ordered by rule id.
   */
  results: Result[];
}
/**
 * What went wrong, for a person or an agent to act on.
 */
export interface Error {
  /**
   * What went wrong and what to do about it.
   */
  error: string;
  /**
   * A stable code a program can switch on (docs/api.md#error-codes): invalid_domain, not_resolvable, payment_required, token_used, token_expired, rate_limited, busy, timeout; for the batch, webhook and monitor APIs also unauthorized, quota_exceeded, batch_too_large, monitor_limit, not_found and conflict. Absent for other problems (a malformed body, an unknown field); new codes may be added.
   */
  code?:
    | 'invalid_domain'
    | 'not_resolvable'
    | 'payment_required'
    | 'token_used'
    | 'token_expired'
    | 'rate_limited'
    | 'busy'
    | 'timeout'
    | 'unauthorized'
    | 'quota_exceeded'
    | 'batch_too_large'
    | 'monitor_limit'
    | 'not_found'
    | 'conflict';
  /**
   * For rate_limited, quota_exceeded and busy: seconds until a retry may succeed (the Retry-After header of REST).
   */
  retry_after_s?: number;
  /**
   * Where the relevant documentation is.
   */
  docs?: string;
}
