// Generated from schemas/report.schema.json by `npm run types`; edit the schema, not this file.

/**
 * The engine's judgement of one observations document (a Quick Scan's result): the verdict, the score, how each probe ran and the outcome of every rule of the tier, with the values each rule read. Its canonical JSON is the second content item of a Quick Scan's ScanResult (and its structuredContent) and what `dvs scan --json` / `dvs evaluate --json` print. A Full Validation's certificate states the same judgement.
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
