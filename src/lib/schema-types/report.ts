// Generated from schemas/report.schema.json by `npm run types`; edit the schema, not this file.

/**
 * The judgement of one scan (a Quick Scan's result): the verdict, the score, how each probe ran and the outcome of every rule of the tier. Its canonical JSON is the second content item of a Quick Scan's ScanResult.
 */
export interface Report {
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
 * The outcome of one rule; reason says, for an error, which observation was missing or which probe failed.
 */
export interface Result {
  id: string;
  version: number;
  level: 'required' | 'recommended' | 'informational';
  outcome: 'pass' | 'fail' | 'not_applicable' | 'error';
  reason?: string;
}
