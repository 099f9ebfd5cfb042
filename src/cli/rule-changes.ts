// How the command line prints rule changes: one line per rule, then the values it read that differ between
// then and now (all of them when only one side kept its values, or when none differs).
import type { Judgement, RuleChange, RuleSide } from '../lib/report-diff.ts';

const outcomeOf = (s: RuleSide): string => s.outcome ?? 'not run';

function differing(c: RuleChange): Set<string> | null {
  const then = c.before.observed;
  const now = c.after.observed;
  if (!then || !now) return null;
  const paths = [...new Set([...Object.keys(then), ...Object.keys(now)])];
  const differ = paths.filter((p) => JSON.stringify(then[p]) !== JSON.stringify(now[p]));
  return differ.length === 0 ? null : new Set(differ);
}

function observedLines(label: string, s: RuleSide, only: Set<string> | null): string[] {
  const entries = Object.entries(s.observed ?? {}).filter(([path]) => !only || only.has(path));
  const pad = ' '.repeat(label.length);
  return entries.map(([path, value], i) => `    ${i === 0 ? label : pad} ${path} = ${JSON.stringify(value)}`);
}

export function describeJudgement(j: Judgement): string {
  return `${j.domain} ${j.observed_at}: ${j.verdict}, score ${j.score} (ruleset ${j.ruleset.version})`;
}

export function formatChanges(changes: readonly RuleChange[]): string[] {
  return changes.flatMap((c) => {
    const only = differing(c);
    return [
      `  ${c.id} (${c.level}): ${outcomeOf(c.before)} -> ${outcomeOf(c.after)}`,
      ...observedLines('then:', c.before, only),
      ...observedLines('now: ', c.after, only),
    ];
  });
}
