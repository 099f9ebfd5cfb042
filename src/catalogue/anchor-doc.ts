// The "Agent-readiness level" section of docs/rules.md: which of this catalogue's rules answer each check of the
// anchor (src/engine/anchor-checks.ts) and the ladder the level climbs, for an auditor lining the two tools up.
import { ANCHOR, ANCHOR_CHECKS, ANCHOR_LEVELS, judges, type Prerequisite } from '../engine/anchor-checks.ts';
import type { Ruleset } from '../engine/ruleset.ts';

/** A `judged` entry as the rules it stands for. */
function judgedRules(entry: string, ruleset: Ruleset): string[] {
  return ruleset.rules.filter((r) => judges(entry, r)).map((r) => r.id);
}

/** Checks no rule of this catalogue answers yet: they read neutral (or unknown, if scored). */
function ruleless(): string[] {
  const none = ANCHOR_CHECKS.filter((c) => c.found.length === 0 && c.judged.length === 0);
  if (!none.length) return [];
  return [`No rule answers ${none.map((c) => `\`${c.id}\``).join(' or ')} yet.`, ''];
}

const COUNTS = ['none', 'one', 'two', 'three', 'four', 'five'];

/** A list as prose: "a", "a and b", "a, b and c". */
function and(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** A prerequisite of the ladder as docs/rules.md states it, from the data the level climbs. */
function prose(p: Prerequisite): string {
  if ('check' in p) return p.check;
  if ('rule' in p) return `${p.label} (the rule ${p.rule})`;
  const parts = p.of.map(prose);
  const count = COUNTS[p.atLeast]!;
  if (p.of.some((q) => 'of' in q))
    return `${p.atLeast === p.of.length ? 'all' : `at least ${count}`} of: ${parts.join('; ')}`;
  if (p.atLeast === p.of.length) return p.of.length > 2 ? `all ${count} of ${and(parts)}` : and(parts);
  if (p.atLeast === 1) return p.of.length > 2 ? `one of ${and(parts)}` : parts.join(' or ');
  return `at least ${count} of ${and(parts)}`;
}

const ids = (list: readonly string[]) => (list.length ? list.map((id) => `\`${id}\``).join(', ') : '-');

export function anchorSection(ruleset: Ruleset): string[] {
  return [
    '## Agent-readiness level',
    '',
    `Every report carries \`agent_readiness\`: a level from 0 to 5 comparable to ${ANCHOR.name}'s`,
    `(${ANCHOR.url}; its check keys and categories as its scan API documents them in`,
    '`https://isitagentready.com/llms-full.txt`), computed from the outcomes of the rules below and never changing',
    'the verdict. A check passes when a rule that finds the thing passes and none of the required rules that judge it',
    'fails; it fails when one of those fails (published but broken) or when a scored check finds nothing; an',
    'unscored one then reads `neutral`. It is `unknown` where the scan did not run its rules (a Quick Scan runs',
    'only the quick tier) or could not evaluate them; the level is then marked `partial`: what the known checks',
    'reach, and possibly higher.',
    '',
    '| check | category | scored | passes when one of these passes | fails when one of these fails |',
    '|---|---|---|---|---|',
    ...ANCHOR_CHECKS.map(
      (c) =>
        `| \`${c.id}\` ${c.title} | ${c.category} | ${c.scored ? 'yes' : 'no'} | ${ids(c.found)} | ${ids(c.judged.flatMap((j) => judgedRules(j, ruleset)))} |`,
    ),
    '',
    `${ANCHOR.name} does not publish its level gates; the ladder follows the prerequisites Reaudit documents under`,
    'the same level names (https://docs.reaudit.io/agent-readiness). A site short of level 1 is at **0 Not Ready**;',
    'each level above needs the one below and:',
    '',
    ...ANCHOR_LEVELS.slice(1).map((l) => `- **${l.level} ${l.name}**: ${prose(l.needs)}.`),
    '',
    ...ruleless(),
  ];
}
