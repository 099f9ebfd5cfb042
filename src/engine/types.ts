// The contracts between probes, rules and reports (docs/architecture.md section 3).
import type { Level, Outcome, Tier, Verdict } from '../lib/judgement.ts';
import type { Logger } from '../lib/log.ts';
import type { Net } from '../net/types.ts';
import type { CompiledRule } from './compile.ts';

export type { Level, Outcome, Tier, Verdict };

export type ProbeStatus = 'ok' | 'error' | 'timeout' | 'skipped';

export interface ProbeRun {
  status: ProbeStatus;
  error?: string;
  ms: number;
}

/**
 * The evidence of one scan: plain JSON, no judgement. Each probe fills its own namespace
 * (`dns`, `tls`, `http`, `wellknown`, ...) as its schema in schemas/observations/<name>.json says.
 */
export interface Observations {
  target: { domain: string; observed_at: string };
  probes: Record<string, ProbeRun>;
  [namespace: string]: unknown;
}

export interface ProbeContext {
  net: Net;
  /** Fires at the scan deadline (or when the scan is cancelled): stop all work; the scan then fails as a whole. */
  signal: AbortSignal;
  /** Fixed once per scan; probes that date anything use this, never the clock. */
  observedAt: string;
  log: Logger;
  /**
   * Whether any rule of this run reads the observation path (e.g. `wellknown.llms_txt`). Providers use it
   * to skip work the tier does not need, so Quick Scan's probe set and requests follow from its rules.
   */
  needs(path: string): boolean;
}

export interface ProbeProvider {
  /** The namespace it fills in the observations document, and its schema's file name. */
  name: string;
  version: string;
  /** JSON Schema (2020-12) of the namespace, loaded from schemas/observations/<name>.json. */
  schema: object;
  collect(domain: string, ctx: ProbeContext): Promise<unknown>;
}

/** What a scan needs of a provider: its namespace and how to collect it (its module may load on first use). */
export type ScanProvider = Pick<ProbeProvider, 'name' | 'collect'>;

export interface RuleExample {
  name: string;
  observations: Record<string, unknown>;
  expect: Outcome;
  /** A known gap: listed by `rules check`, not failed. */
  todo?: boolean;
}

export interface SpecRef {
  status: 'standard' | 'draft' | 'proposal' | 'de-facto' | 'best-practice';
  name: string;
  version?: string;
}

export interface Rule {
  id: string;
  version: number;
  title: string;
  category: string;
  tier: Tier;
  level: Level;
  requires: string[];
  when?: unknown;
  check: unknown;
  rationale: string;
  remediation: string;
  references: string[];
  spec?: SpecRef;
  /** The stated reason a required rule may pass on a hollow observations document (the weak-rule gate). */
  hollow_pass_reason?: string;
  examples: RuleExample[];
}

export interface LoadedRule extends Rule {
  /** The file it came from, relative to the repository. */
  file: string;
  /** SHA-256 of the rule's canonical JSON. */
  digest: string;
  /** The observation paths its `when` and `check` read, sorted: the keys of its results' `observed`. */
  reads: string[];
  /** Its requires and logic compiled at load (src/engine/compile.ts). */
  compiled: CompiledRule;
}

/** As the anchor reports a check, plus `unknown` where this scan did not run (or could not judge) its rules. */
export type AnchorStatus = 'pass' | 'fail' | 'neutral' | 'unknown';

export interface AgentReadiness {
  anchor: 'isitagentready';
  level: number;
  name: string;
  checks: Record<string, AnchorStatus>;
  /** Set when a check is unknown: the level is what the known checks reach, and may be higher. */
  partial?: true;
  /** The next level and the checks it still needs; absent at level 5. */
  next?: { level: number; name: string; needs: string[] };
}

export interface RuleResult {
  id: string;
  version: number;
  level: Level;
  outcome: Outcome;
  /** For `error`: which required observation was missing or which probe failed. */
  reason?: string;
  /** The values the rule read, by path, each cut to a bounded size (null where the document has none). */
  observed: Record<string, unknown>;
}

export interface Report {
  type: 'dvs.report';
  version: 1;
  engine: string;
  domain: string;
  tier: Tier;
  observed_at: string;
  verdict: Verdict;
  score: number;
  ruleset: { version: string; digest: string };
  evidence_digest: string;
  counts: Record<Outcome, number>;
  probes: Record<string, ProbeStatus>;
  results: RuleResult[];
  /** The agent-readiness level beside the verdict (absent from reports made before it was computed). */
  agent_readiness?: AgentReadiness;
}
