// The comparison of two judgements: deterministic, symmetric in what it calls changed, and exact about which
// rules it names.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { changedRules, regressions, type JudgedRule } from '../../src/lib/report-diff.ts';

const OUTCOMES = ['pass', 'fail', 'not_applicable', 'error'] as const;
const LEVELS = ['required', 'recommended', 'informational'] as const;

const rule = fc.record(
  {
    id: fc.constantFrom('a.one', 'a.two', 'b.one', 'b.two', 'c.one', 'c.two'),
    level: fc.constantFrom(...LEVELS),
    outcome: fc.constantFrom(...OUTCOMES),
    observed: fc.dictionary(fc.constantFrom('x.y', 'x.z'), fc.oneof(fc.integer(), fc.string(), fc.constant(null))),
  },
  { requiredKeys: ['id', 'level', 'outcome'] },
);
const results = fc
  .uniqueArray(rule, { selector: (r) => r.id })
  .map((rs): { results: JudgedRule[] } => ({ results: rs }));

it('is deterministic and does not depend on the order of the results', () => {
  fc.assert(
    fc.property(results, results, fc.integer(), (a, b, seed) => {
      const shuffled = {
        results: [...a.results].sort((x, y) => ((x.id.length * seed) % 7) - ((y.id.length * seed) % 7)),
      };
      expect(changedRules(shuffled, b)).toEqual(changedRules(a, b));
      expect(JSON.stringify(changedRules(a, b))).toBe(JSON.stringify(changedRules(a, b)));
    }),
  );
});

it('names the same rules either way, each with its two sides swapped', () => {
  fc.assert(
    fc.property(results, results, (a, b) => {
      const ab = changedRules(a, b);
      const ba = changedRules(b, a);
      expect(ba.map((c) => c.id)).toEqual(ab.map((c) => c.id));
      expect(ba.map((c) => [c.before, c.after])).toEqual(ab.map((c) => [c.after, c.before]));
    }),
  );
});

it('names exactly the rules whose outcome differs, ordered by id, and nothing against itself', () => {
  fc.assert(
    fc.property(results, results, (a, b) => {
      expect(changedRules(a, a)).toEqual([]);
      const outcome = (r: { results: JudgedRule[] }, id: string) => r.results.find((x) => x.id === id)?.outcome ?? null;
      const ids = [...new Set([...a.results, ...b.results].map((r) => r.id))].sort();
      expect(changedRules(a, b).map((c) => c.id)).toEqual(ids.filter((id) => outcome(a, id) !== outcome(b, id)));
      for (const c of changedRules(a, b)) {
        expect(c.before.outcome).toBe(outcome(a, c.id));
        expect(c.after.outcome).toBe(outcome(b, c.id));
      }
    }),
  );
});

it('counts as a regression only a rule that passed and now fails', () => {
  fc.assert(
    fc.property(results, results, (a, b) => {
      const r = regressions(a, b);
      expect(r.filter((c) => c.before.outcome !== 'pass' || c.after.outcome !== 'fail')).toEqual([]);
      expect(r.length).toBe(
        a.results.filter((x) => x.outcome === 'pass' && b.results.find((y) => y.id === x.id)?.outcome === 'fail')
          .length,
      );
    }),
  );
});

it('carries what the rule read on each side, and says when a rule was not part of one judgement', () => {
  const before = {
    results: [{ id: 'h.hsts', level: 'required' as const, outcome: 'pass' as const, observed: { 'h.count': 1 } }],
  };
  const after = {
    results: [
      { id: 'h.hsts', level: 'required' as const, outcome: 'fail' as const, observed: { 'h.count': 0 } },
      { id: 'h.new', level: 'recommended' as const, outcome: 'pass' as const },
    ],
  };
  expect(changedRules(before, after)).toEqual([
    {
      id: 'h.hsts',
      level: 'required',
      before: { outcome: 'pass', observed: { 'h.count': 1 } },
      after: { outcome: 'fail', observed: { 'h.count': 0 } },
    },
    { id: 'h.new', level: 'recommended', before: { outcome: null }, after: { outcome: 'pass' } },
  ]);
  expect(regressions(before, after).map((c) => c.id)).toEqual(['h.hsts']);
});
