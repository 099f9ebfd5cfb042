// Compares two judgements of a domain (reports or certificate payloads): which rules changed outcome, and what
// each read then and now. Pure and ordered by rule id, so the same two documents always give the same answer,
// and comparing b with a gives the same rules as a with b, each with its two sides swapped.
import type { Level, Outcome, Verdict } from './judgement.ts';

/** One rule's outcome as a report or a certificate states it; a certificate keeps `observed` for fail and error. */
export interface JudgedRule {
  id: string;
  level: Level;
  outcome: Outcome;
  observed?: Record<string, unknown>;
}

/** What a report and a certificate payload both carry. */
export interface Judgement {
  domain: string;
  observed_at: string;
  verdict: Verdict;
  score: number;
  ruleset: { version: string };
  results: readonly JudgedRule[];
}

/** A rule's side of a change: null when the rule was not part of that judgement (another ruleset). */
export interface RuleSide {
  outcome: Outcome | null;
  /** The values the rule read, when the document kept them. */
  observed?: Record<string, unknown>;
}

export interface RuleChange {
  id: string;
  level: Level;
  before: RuleSide;
  after: RuleSide;
}

function side(rule: JudgedRule | undefined): RuleSide {
  if (!rule) return { outcome: null };
  return rule.observed === undefined ? { outcome: rule.outcome } : { outcome: rule.outcome, observed: rule.observed };
}

function byId(results: readonly JudgedRule[]): Map<string, JudgedRule> {
  return new Map(results.map((r) => [r.id, r]));
}

/** The rules whose outcome differs between `before` and `after`, ordered by rule id. */
export function changedRules(before: Pick<Judgement, 'results'>, after: Pick<Judgement, 'results'>): RuleChange[] {
  const then = byId(before.results);
  const now = byId(after.results);
  const ids = [...new Set([...then.keys(), ...now.keys()])].sort();
  const changes: RuleChange[] = [];
  for (const id of ids) {
    const a = then.get(id);
    const b = now.get(id);
    if (a?.outcome === b?.outcome) continue;
    // The level is the newer judgement's when it has the rule: that is the ruleset a reader acts on.
    changes.push({ id, level: (b ?? a)!.level, before: side(a), after: side(b) });
  }
  return changes;
}

/** The rules that passed in the baseline and fail now: what a CI gate refuses. */
export function regressions(baseline: Pick<Judgement, 'results'>, current: Pick<Judgement, 'results'>): RuleChange[] {
  return changedRules(baseline, current).filter((c) => c.before.outcome === 'pass' && c.after.outcome === 'fail');
}
