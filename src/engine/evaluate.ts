// The evaluator: every rule of a tier over one observations document. Pure: no I/O, no clock; the same
// document and ruleset give the same report, whatever the key order of the input.
import jsonLogic from 'json-logic-js';
import { digestOf } from '../lib/canonical-json.ts';
import { ObservedValues } from './observed.ts';
import { registerOperations } from './operations.ts';
import type { Ruleset } from './ruleset.ts';
import type { LoadedRule, Observations, Report, RuleResult, Tier } from './types.ts';
import { countOutcomes, scoreOf, verdictOf } from './verdict.ts';

export const ENGINE_VERSION = 'dvs-engine/1.0';

registerOperations();

const MISSING = Symbol('missing');

function lookup(doc: unknown, dotted: string): unknown {
  let cur: unknown = doc;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return MISSING;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined ? MISSING : cur;
}

function assign(view: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = view;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object') cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** Rules of a tier: Quick Scan runs the quick rules, Full Validation all of them. */
export function rulesOfTier(ruleset: Ruleset, tier: Tier): LoadedRule[] {
  return tier === 'full' ? ruleset.rules : ruleset.rules.filter((r) => r.tier === 'quick');
}

/**
 * One rule over a document. The rule sees only the paths it `requires` (plus target), so it cannot depend on
 * evidence it did not declare; a required path that is missing, or whose probe did not finish, is `error`.
 * Every result carries the values the rule read (`observed`); `values` shares them between the rules of one run.
 */
export function evaluateRule(
  rule: LoadedRule,
  doc: Observations | Record<string, unknown>,
  values: ObservedValues = new ObservedValues(doc),
): RuleResult {
  const base = {
    id: rule.id,
    version: rule.version,
    level: rule.level,
    observed: values.of(rule.reads, rule.readSegments),
  };
  const probes = (doc as Observations).probes ?? {};
  const target = (doc as Observations).target;
  const view: Record<string, unknown> = {
    target: { domain: target?.domain ?? null, observed_at: target?.observed_at ?? null },
  };
  for (const p of rule.requires) {
    const ns = p.split('.')[0]!;
    const run = probes[ns];
    if (run && run.status !== 'ok')
      return { ...base, outcome: 'error', reason: `probe ${ns}: ${run.status}${run.error ? ` (${run.error})` : ''}` };
    const value = lookup(doc, p);
    if (value === MISSING) return { ...base, outcome: 'error', reason: `missing observation ${p}` };
    // A path under another required one is already in the view; assigning it would write into the document.
    if (!rule.requires.some((q) => p.startsWith(q + '.'))) assign(view, p, value);
  }
  try {
    if (rule.when !== undefined && !jsonLogic.truthy(jsonLogic.apply(rule.when as jsonLogic.RulesLogic, view))) {
      return { ...base, outcome: 'not_applicable' };
    }
    const passed = jsonLogic.truthy(jsonLogic.apply(rule.check as jsonLogic.RulesLogic, view));
    return { ...base, outcome: passed ? 'pass' : 'fail' };
  } catch (err) {
    return { ...base, outcome: 'error', reason: `evaluation failed: ${(err as Error).message}`.slice(0, 500) };
  }
}

export function evaluate(observations: Observations, ruleset: Ruleset, tier: Tier): Report {
  const values = new ObservedValues(observations);
  const results = rulesOfTier(ruleset, tier).map((rule) => evaluateRule(rule, observations, values));
  const probes = Object.fromEntries(Object.entries(observations.probes ?? {}).map(([name, run]) => [name, run.status]));
  return {
    type: 'dvs.report',
    version: 1,
    engine: ENGINE_VERSION,
    domain: observations.target.domain,
    tier,
    observed_at: observations.target.observed_at,
    verdict: verdictOf(results),
    score: scoreOf(results),
    ruleset: { version: ruleset.version, digest: ruleset.digest },
    evidence_digest: digestOf(observations),
    counts: countOutcomes(results),
    probes,
    results,
  };
}
