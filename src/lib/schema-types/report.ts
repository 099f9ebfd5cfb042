// Generated from schemas/report.schema.json by `npm run types`; edit the schema, not this file.

import type { Domain, Sha256 } from './certificate.ts';

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
  domain: Domain;
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
    digest: Sha256;
  };
  /**
   * SHA-256 of the canonical observations document.
   */
  evidence_digest: Sha256;
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
