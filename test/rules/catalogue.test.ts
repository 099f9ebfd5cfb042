// The real catalogue under rules/: every rule loads, every example gives what it expects, and `dvs rules check`
// finds nothing (hollow evidence, house style, version lock, stale docs/rules.md, unfinished blanks).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { reviewCatalogue } from '../../src/catalogue/catalogue-problems.ts';
import { checkedCatalogue } from '../suite/ruleset.ts';

const rulesDir = path.join(REPO_ROOT, 'rules');
const ruleset = checkedCatalogue();
const review = reviewCatalogue(ruleset, { rulesDir, docsFile: path.join(REPO_ROOT, 'docs', 'rules.md'), fix: false });

describe('rule catalogue', () => {
  it('uses both tiers and every level', () => {
    expect(new Set(ruleset.rules.map((r) => r.tier))).toEqual(new Set(['quick', 'full']));
    expect(new Set(ruleset.rules.map((r) => r.level))).toEqual(new Set(['required', 'recommended', 'informational']));
  });

  describe.each(ruleset.rules.map((r) => [r.id]))('%s', (id) => {
    const mine = review.runs.filter((r) => r.rule === id && !r.todo);
    it.each(mine.map((r) => [r.example, r]))('example "%s"', (_name, run) => {
      expect(run.got, run.reason).toBe(run.expected);
    });
  });

  it('passes `dvs rules check` (run `npm run dvs -- rules check --fix` for style, lock and docs)', () => {
    const others = review.problems.filter((p) => p.kind !== 'example');
    expect(others.map((p) => `${p.file}: ${p.message}`)).toEqual([]);
  });
});
