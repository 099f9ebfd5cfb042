// Verdict and score from rule outcomes (docs/architecture.md section 3.4): a pure function of the results.
import type { Level, Outcome, RuleResult, Verdict } from './types.ts';

/** How much a rule weighs in the score; informational rules never move it. */
export const LEVEL_WEIGHT: Record<Level, number> = { required: 3, recommended: 1, informational: 0 };

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
 * 0-100: the weighted share of applicable rules that pass. An `error` counts against the score (the evidence
 * is missing, so the point is not earned); `not_applicable` counts for nothing either way.
 */
export function scoreOf(results: readonly Pick<RuleResult, 'level' | 'outcome'>[]): number {
  let earned = 0;
  let possible = 0;
  for (const r of results) {
    const w = LEVEL_WEIGHT[r.level];
    if (w === 0 || r.outcome === 'not_applicable') continue;
    possible += w;
    if (r.outcome === 'pass') earned += w;
  }
  return possible === 0 ? 0 : Math.floor((100 * earned) / possible);
}

export function countOutcomes(results: readonly Pick<RuleResult, 'outcome'>[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, not_applicable: 0, error: 0 };
  for (const r of results) counts[r.outcome] += 1;
  return counts;
}
