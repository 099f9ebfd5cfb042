// An agent-readiness level comparable to isitagentready's 0-5, computed from this catalogue's own outcomes
// (src/engine/anchor-checks.ts says which rules answer each of its checks). It sits beside the verdict and never
// changes it. The anchor does not publish its level gates; these follow the prerequisite ladder documented under
// the same level names by Reaudit (https://docs.reaudit.io/agent-readiness), which docs/rules.md cites.
import {
  ANCHOR,
  ANCHOR_CHECKS,
  ANCHOR_LEVELS,
  judges,
  prerequisiteName,
  type AnchorCheck,
  type Prerequisite,
  type PrerequisiteGroup,
} from './anchor-checks.ts';
import type { AgentReadiness, AnchorStatus, Outcome, RuleResult } from './types.ts';

/** What the level reads of a result: a report's results and a certificate's alike. */
type Judged = Pick<RuleResult, 'id' | 'level' | 'outcome'>;

/**
 * The outcomes of the rules the check's `judged` entries name: an id is looked up, only a `prefix.*` walks the
 * required results (the prefix's required rules). Walking every result for every entry cost 285 us of CPU a report; this walk, 75.
 */
function judgedOutcomes(
  check: AnchorCheck,
  byId: ReadonlyMap<string, Outcome>,
  required: readonly Judged[],
): Outcome[] {
  const out: Outcome[] = [];
  for (const entry of check.judged) {
    if (entry.endsWith('.*')) {
      for (const r of required) if (judges(entry, r)) out.push(r.outcome);
    } else {
      const outcome = byId.get(entry);
      if (outcome !== undefined) out.push(outcome);
    }
  }
  return out;
}

function statusOf(check: AnchorCheck, byId: ReadonlyMap<string, Outcome>, required: readonly Judged[]): AnchorStatus {
  const found = check.found.map((id) => byId.get(id));
  const judged = judgedOutcomes(check, byId, required);
  if (found.includes('pass')) return judged.includes('fail') ? 'fail' : 'pass';
  // Published but broken: a rule that judges only what is there failed.
  if (judged.includes('fail')) return 'fail';
  if (check.found.length === 0) return check.scored ? 'unknown' : 'neutral';
  if (found.some((o) => o === undefined || o === 'error')) return 'unknown';
  return check.scored ? 'fail' : 'neutral';
}

/** Whether a site whose passing checks `pass` says meets a prerequisite of the ladder. */
function meets(p: Prerequisite, pass: (id: string) => boolean, byId: ReadonlyMap<string, Outcome>): boolean {
  if ('check' in p) return pass(p.check);
  if ('rule' in p) return byId.get(p.rule) === 'pass';
  return p.of.filter((q) => meets(q, pass, byId)).length >= p.atLeast;
}

/** What a rung needs that the site lacks: nothing once it is met, otherwise the parts it does not meet. */
function missing(rung: PrerequisiteGroup, pass: (id: string) => boolean, byId: ReadonlyMap<string, Outcome>): string[] {
  if (meets(rung, pass, byId)) return [];
  return rung.of.filter((p) => !meets(p, pass, byId)).map(prerequisiteName);
}

export function agentReadiness(results: readonly Judged[]): AgentReadiness {
  const byId = new Map(results.map((r) => [r.id, r.outcome]));
  const required = results.filter((r) => r.level === 'required');
  const checks: Record<string, AnchorStatus> = {};
  for (const check of ANCHOR_CHECKS) checks[check.id] = statusOf(check, byId, required);
  const pass = (id: string) => checks[id] === 'pass';
  let level = 0;
  let needs: string[] = [];
  while (level < 5 && (needs = missing(ANCHOR_LEVELS[level + 1]!.needs, pass, byId)).length === 0) level++;
  const out: AgentReadiness = { anchor: ANCHOR.name, level, name: ANCHOR_LEVELS[level]!.name, checks };
  if (Object.values(checks).includes('unknown')) out.partial = true;
  if (level < 5) {
    const next = ANCHOR_LEVELS[level + 1]!;
    out.next = { level: next.level, name: next.name, needs };
  }
  return out;
}
