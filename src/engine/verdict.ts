// Verdict and score from rule outcomes (docs/architecture.md section 3.4): a pure function of the results.
import type { Level, Outcome, RuleResult, Verdict } from './types.ts';

/** How much a rule weighs in the score; informational rules never move it. */
export const LEVEL_WEIGHT: Record<Level, number> = { required: 3, recommended: 1, informational: 0 };

/** The lowest score a CERTIFIED verdict gives; every other verdict scores below it. */
export const CERTIFIED_FLOOR = 50;

export function verdictOf(results: readonly Pick<RuleResult, 'level' | 'outcome'>[]): Verdict {
  let errored = false;
  for (const r of results) {
    if (r.level !== 'required') continue;
    if (r.outcome === 'fail') return 'NOT_CONFORMANT';
    if (r.outcome === 'error') errored = true;
  }
  return errored ? 'INCOMPLETE' : 'CERTIFIED';
}

/**
 * 0-100, in the band of the verdict, so the number never says more than the verdict does:
 * - CERTIFIED: 50 + floor(50 x the share of applicable recommended rules that pass), 100 when none applies;
 * - NOT_CONFORMANT and INCOMPLETE: floor(49 x the weighted share of applicable required and recommended rules
 *   that pass, required weighing 3 and recommended 1), so at most 48 since a required rule did not pass.
 * An `error` counts as not passed (the evidence is missing, so the point is not earned); `not_applicable` counts
 * for nothing either way; informational rules never move the score. Integers only, so it is the same everywhere.
 */
export function scoreOf(results: readonly Pick<RuleResult, 'level' | 'outcome'>[]): number {
  let earned = 0;
  let possible = 0;
  let recommendedPassed = 0;
  let recommended = 0;
  let requiredMissed = false;
  for (const r of results) {
    const w = LEVEL_WEIGHT[r.level];
    if (w === 0 || r.outcome === 'not_applicable') continue;
    possible += w;
    if (r.outcome === 'pass') earned += w;
    else if (r.level === 'required') requiredMissed = true;
    if (r.level === 'recommended') {
      recommended += 1;
      if (r.outcome === 'pass') recommendedPassed += 1;
    }
  }
  if (requiredMissed) return Math.floor(((CERTIFIED_FLOOR - 1) * earned) / possible);
  if (recommended === 0) return 100;
  return CERTIFIED_FLOOR + Math.floor(((100 - CERTIFIED_FLOOR) * recommendedPassed) / recommended);
}

export function countOutcomes(results: readonly Pick<RuleResult, 'outcome'>[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, not_applicable: 0, error: 0 };
  for (const r of results) counts[r.outcome] += 1;
  return counts;
}
