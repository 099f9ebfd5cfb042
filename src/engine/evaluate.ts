// The evaluator: every rule of a tier over one observations document. Pure: no I/O, no clock; the same
// document and ruleset give the same report, whatever the key order of the input. Rules arrive compiled
// (src/engine/compile.ts), so judging a document walks no json-logic.
import { digestOf } from '../lib/canonical-json.ts';
import { truthy } from './compile.ts';
import { agentReadiness } from './readiness-level.ts';
import { planEvaluation, PlannedDocument, type EvaluationPlan, type PlannedRule } from './evaluation-plan.ts';
import type { Ruleset } from './ruleset.ts';
import type { LoadedRule, Observations, Outcome, Report, RuleResult, Tier } from './types.ts';
import { countOutcomes, scoreOf, verdictOf } from './verdict.ts';

export const ENGINE_VERSION = 'dvs-engine/2.0';

const quickRules = new WeakMap<Ruleset, LoadedRule[]>();
const plans = new WeakMap<Ruleset, Partial<Record<Tier, EvaluationPlan>>>();

/** Rules of a tier: Quick Scan runs the quick rules, Full Validation all of them. */
export function rulesOfTier(ruleset: Ruleset, tier: Tier): LoadedRule[] {
  if (tier === 'full') return ruleset.rules;
  let quick = quickRules.get(ruleset);
  if (!quick) {
    quick = ruleset.rules.filter((r) => r.tier === 'quick');
    quickRules.set(ruleset, quick);
  }
  return quick;
}

/** The tier's evaluation plan, made on first use and kept with the ruleset. */
export function planOf(ruleset: Ruleset, tier: Tier): EvaluationPlan {
  let byTier = plans.get(ruleset);
  if (!byTier) plans.set(ruleset, (byTier = {}));
  return (byTier[tier] ??= planEvaluation(rulesOfTier(ruleset, tier)));
}

/**
 * One rule over a document. The rule reads only paths under what it `requires` (plus target): the ruleset
 * loader refuses any other, so it cannot depend on evidence it did not declare. A required path that is
 * missing, or whose probe did not finish, is `error`. Every result carries the values the rule read
 * (`observed`).
 */
export function evaluateRule(rule: LoadedRule, doc: Observations | Record<string, unknown>): RuleResult {
  let plan = rulePlans.get(rule);
  if (!plan) rulePlans.set(rule, (plan = planEvaluation([rule])));
  return judge(plan.rules[0]!, new PlannedDocument(plan, doc));
}

/** One rule's plan, kept with the rule: checking a rule's examples judges it many times. */
const rulePlans = new WeakMap<LoadedRule, EvaluationPlan>();

function judge(planned: PlannedRule, view: PlannedDocument): RuleResult {
  const observed = view.observed(planned);
  const missing = view.unevaluable(planned);
  if (missing !== null) return resultOf(planned, 'error', observed, missing);
  const { when, check } = planned;
  view.select(planned);
  try {
    if (when !== null && !truthy(when(view))) return resultOf(planned, 'not_applicable', observed);
    return resultOf(planned, truthy(check(view)) ? 'pass' : 'fail', observed);
  } catch (err) {
    return resultOf(planned, 'error', observed, `evaluation failed: ${(err as Error).message}`.slice(0, 500));
  }
}

// A module-level function, not a closure per call: the hot path allocates only the result itself.
function resultOf(rule: PlannedRule, outcome: Outcome, observed: RuleResult['observed'], reason?: string): RuleResult {
  return reason === undefined
    ? { id: rule.id, version: rule.version, level: rule.level, outcome, observed }
    : { id: rule.id, version: rule.version, level: rule.level, outcome, reason, observed };
}

/** The results alone: what the evaluation costs without the report around it (measured by the bench). */
export function evaluateRules(observations: Observations, ruleset: Ruleset, tier: Tier): RuleResult[] {
  const plan = planOf(ruleset, tier);
  const view = new PlannedDocument(plan, observations);
  const results = new Array<RuleResult>(plan.rules.length);
  for (let i = 0; i < plan.rules.length; i++) results[i] = judge(plan.rules[i]!, view);
  return results;
}

/** The report around results: verdict, score, counts and probe states. */
export function buildReport(
  observations: Observations,
  ruleset: Ruleset,
  tier: Tier,
  results: RuleResult[],
  evidenceDigest: string,
): Report {
  const probes: Report['probes'] = {};
  for (const [name, run] of Object.entries(observations.probes ?? {})) probes[name] = run.status;
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
    evidence_digest: evidenceDigest,
    counts: countOutcomes(results),
    probes,
    results,
    agent_readiness: agentReadiness(results),
  };
}

/** `evidenceDigest` lets a caller that already canonicalised the observations pass the digest in. */
export function evaluate(
  observations: Observations,
  ruleset: Ruleset,
  tier: Tier,
  evidenceDigest: string = digestOf(observations),
): Report {
  return buildReport(observations, ruleset, tier, evaluateRules(observations, ruleset, tier), evidenceDigest);
}
