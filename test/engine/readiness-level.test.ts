import { describe, expect, it } from 'vitest';
import { ANCHOR_CHECKS, judges } from '../../src/engine/anchor-checks.ts';
import { agentReadiness } from '../../src/engine/readiness-level.ts';
import type { Level, Outcome, RuleResult } from '../../src/engine/types.ts';
import { catalogue } from '../suite/ruleset.ts';

const result = (id: string, outcome: Outcome, level: Level = 'required'): RuleResult => ({
  id,
  version: 1,
  level,
  outcome,
  observed: {},
});

/** Every rule that answers an anchor check, not applicable: the site shows nothing of any of them. */
function nothing(): RuleResult[] {
  return catalogue().rules.map((r) => result(r.id, 'not_applicable', r.level));
}

function withOutcomes(outcomes: Record<string, Outcome>): RuleResult[] {
  return nothing().map((r) => (r.id in outcomes ? { ...r, outcome: outcomes[r.id]! } : r));
}

const LEVEL_1 = { 'robots.txt.present': 'pass', 'discovery.sitemap.present': 'pass' } as const;
const LEVEL_2 = { ...LEVEL_1, 'robots.txt.ai_rules_explicit': 'pass', 'usage.content_signal.present': 'pass' } as const;
const LEVEL_3 = { ...LEVEL_2, 'content.markdown.negotiation': 'pass' } as const;
const LEVEL_4 = { ...LEVEL_3, 'a2a.card.published': 'pass' } as const;

describe('the agent-readiness level', () => {
  it('names a rule of the catalogue for every rule it reads, and a required rule for every prefix', () => {
    const rules = catalogue().rules;
    const ids = new Set(rules.map((r) => r.id));
    for (const check of ANCHOR_CHECKS) {
      for (const id of check.found) expect(ids.has(id), `${check.id}: ${id}`).toBe(true);
      for (const j of check.judged) {
        const matches = rules.filter((r) => judges(j, r));
        expect(matches.length, `${check.id}: ${j}`).toBeGreaterThan(0);
      }
    }
    expect(ANCHOR_CHECKS.map((c) => c.id)).toHaveLength(18);
  });

  it('climbs the ladder one prerequisite at a time', () => {
    expect(agentReadiness(withOutcomes({})).level).toBe(0);
    expect(agentReadiness(withOutcomes({ 'robots.txt.present': 'pass' }))).toMatchObject({
      level: 0,
      next: { level: 1, needs: ['sitemap', 'linkHeaders'] },
    });
    expect(agentReadiness(withOutcomes(LEVEL_1))).toMatchObject({ level: 1, name: 'Basic Web Presence' });
    expect(agentReadiness(withOutcomes({ ...LEVEL_1, 'robots.txt.ai_rules_explicit': 'pass' }))).toMatchObject({
      level: 1,
      next: { level: 2, name: 'Bot-Aware', needs: ['contentSignals'] },
    });
    expect(agentReadiness(withOutcomes(LEVEL_2)).level).toBe(2);
    expect(agentReadiness(withOutcomes(LEVEL_3)).level).toBe(3);
    expect(agentReadiness(withOutcomes(LEVEL_4))).toMatchObject({ level: 4, name: 'Agent-Integrated' });
    // A later rung without the earlier ones counts for nothing.
    expect(agentReadiness(withOutcomes({ ...LEVEL_4, 'usage.content_signal.present': 'fail' })).level).toBe(1);
  });

  it('reaches Agent-Native with two of: Web Bot Auth, all four integration documents, authentication metadata', () => {
    const auth = { 'agents.auth_md.published': 'pass' } as const;
    const wba = { 'identity.wba_directory.published': 'pass' } as const;
    expect(agentReadiness(withOutcomes({ ...LEVEL_4, ...auth }))).toMatchObject({
      level: 4,
      next: { level: 5, needs: ['webBotAuth', 'all of mcpServerCard, a2aAgentCard, agentSkills, apiCatalog'] },
    });
    const native = agentReadiness(withOutcomes({ ...LEVEL_4, ...auth, ...wba }));
    expect(native).toMatchObject({ level: 5, name: 'Agent-Native' });
    expect(native.next).toBeUndefined();
  });

  it('fails a check whose document is there but broken, and whose judging rule fails', () => {
    const broken = agentReadiness(withOutcomes({ 'api.catalog.parses': 'fail' }));
    expect(broken.checks.apiCatalog).toBe('fail');
    const invalid = agentReadiness(withOutcomes({ 'a2a.card.published': 'pass', 'a2a.card.endpoints_https': 'fail' }));
    expect(invalid.checks.a2aAgentCard).toBe('fail');
    // A failing recommended rule under the prefix does not: the anchor asks whether it is there and usable.
    const current = agentReadiness(withOutcomes({ 'a2a.card.published': 'pass', 'a2a.card.current_location': 'fail' }));
    expect(current.checks.a2aAgentCard).toBe('pass');
    // Nor does a card signature that does not verify: the anchor does not ask for signed cards.
    const unsigned = agentReadiness(
      withOutcomes({ 'a2a.card.published': 'pass', 'a2a.card.signature_verifies': 'fail' }),
    );
    expect(unsigned.checks.a2aAgentCard).toBe('pass');
  });

  it('reads neutral for an unscored check with nothing to show, fail for a scored one', () => {
    const { checks } = agentReadiness(withOutcomes({}));
    expect(checks).toMatchObject({ webBotAuth: 'neutral', x402: 'neutral', ucp: 'neutral', robotsTxt: 'fail' });
  });

  it('says which checks it could not judge, and that the level may then be higher', () => {
    const quick = nothing().filter((r) => r.id !== 'robots.txt.present' && r.id !== 'discovery.sitemap.present');
    const readiness = agentReadiness(quick);
    expect(readiness.checks).toMatchObject({ robotsTxt: 'unknown', sitemap: 'unknown' });
    expect(readiness.partial).toBe(true);
    expect(agentReadiness(withOutcomes({ 'robots.txt.present': 'error' })).checks.robotsTxt).toBe('unknown');
    expect(agentReadiness(withOutcomes({})).partial).toBeUndefined();
  });
});
