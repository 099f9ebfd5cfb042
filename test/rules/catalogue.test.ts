// The real catalogue under rules/: every rule loads, every example gives what it expects, no required rule
// rests on absent evidence, the version lock is current and docs/rules.md is not stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRuleset } from '../../src/engine/ruleset.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { renderCatalogue } from '../../src/engine/catalogue.ts';
import { lockProblems, readLock, runExamples, weakRuleGate } from '../../src/engine/rule-checks.ts';
import { unstyledRuleFiles } from '../../src/engine/rule-format.ts';

const rulesDir = path.join(REPO_ROOT, 'rules');
const ruleset = loadRuleset();
const runs = runExamples(ruleset);

describe('rule catalogue', () => {
  it('uses both tiers and every level', () => {
    expect(new Set(ruleset.rules.map((r) => r.tier))).toEqual(new Set(['quick', 'full']));
    expect(new Set(ruleset.rules.map((r) => r.level))).toEqual(new Set(['required', 'recommended', 'informational']));
  });

  describe.each(ruleset.rules.map((r) => [r.id]))('%s', (id) => {
    const mine = runs.filter((r) => r.rule === id && !r.todo);
    it.each(mine.map((r) => [r.example, r]))('example "%s"', (_name, run) => {
      expect(run.got, run.reason).toBe(run.expected);
    });
  });

  it('has no required rule that passes on hollow evidence', () => {
    expect(weakRuleGate(ruleset).refused).toEqual([]);
  });

  it('is written in the house style (`npm run dvs -- rules check --fix` rewrites a file that is not)', () => {
    expect(
      unstyledRuleFiles(
        ruleset.rules.map((r) => r.file),
        rulesDir,
        false,
      ),
    ).toEqual([]);
  });

  it('matches its version lock', () => {
    const lock = readLock(path.join(rulesDir, 'ruleset.lock.json'));
    expect(lock, 'rules/ruleset.lock.json is missing: run `npm run dvs -- rules lock`').not.toBeNull();
    expect(lockProblems(ruleset, lock!)).toEqual([]);
  });

  it('is documented in docs/rules.md (regenerate with `npm run dvs -- rules docs`)', () => {
    const committed = readFileSync(path.join(REPO_ROOT, 'docs', 'rules.md'), 'utf8');
    expect(committed === renderCatalogue(ruleset, rulesDir), 'docs/rules.md is stale: run `npm run dvs -- rules docs`').toBe(true);
  });
});
