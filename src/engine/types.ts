// The contracts between probes, rules and reports (docs/architecture.md section 3).
import type { Level, Outcome, Tier, Verdict } from '../lib/judgement.ts';
import type { Logger } from '../lib/log.ts';
import type { Net } from '../net/types.ts';
import type { Report, Result as RuleResult } from '../lib/schema-types/report.ts';
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

/** `T`: the namespace's type generated from its schema, so a probe that emits the wrong shape fails the type check. */
export interface ProbeProvider<T = unknown> {
  /** The namespace it fills in the observations document, and its schema's file name. */
  name: string;
  version: string;
  /** JSON Schema (2020-12) of the namespace, loaded from schemas/observations/<name>.json. */
  schema: object;
  collect(domain: string, ctx: ProbeContext): Promise<T>;
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

/** The engine's judgement and each rule's outcome in it: schemas/report.schema.json is their one definition. */
export type { Report, RuleResult };

export type AgentReadiness = NonNullable<Report['agent_readiness']>;
/** As the anchor reports a check, plus `unknown` where this scan did not run (or could not judge) its rules. */
export type AnchorStatus = NonNullable<AgentReadiness['checks'][string]>;
