// Generated from schemas/report.schema.json by `npm run types`; edit the schema, not this file.

/**
 * The engine's judgement of one observations document: the canonical JSON a Quick Scan returns and `dvs scan --json` / `dvs evaluate --json` print. A Full Validation's certificate states the same judgement.
 */
export interface Report {
  type: 'dvs.report';
  version: 1;
  /**
   * Name and version of the evaluator.
   */
  engine: string;
  domain: string;
  tier: 'quick' | 'full';
  /**
   * When the observations were collected (ISO 8601, UTC).
   */
  observed_at: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  score: number;
  ruleset: {
    version: string;
    digest: string;
  };
  /**
   * SHA-256 of the canonical observations document.
   */
  evidence_digest: string;
  counts: {
    pass: number;
    fail: number;
    not_applicable: number;
    error: number;
  };
  /**
   * How each probe's run ended, by probe name.
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
 * The outcome of one rule and the values it read.
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
