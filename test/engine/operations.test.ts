import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/engine/operations.ts';
import { applyReference } from '../helpers/json-logic-reference.ts';

const apply = (logic: unknown, data: unknown = {}): unknown => applyReference(logic, data);

describe('custom operations', () => {
  it('regex_test matches strings only', () => {
    expect(apply({ regex_test: ['^v=spf1\\b', 'v=spf1 -all'] })).toBe(true);
    expect(apply({ regex_test: ['^V=SPF1', 'v=spf1 -all', 'i'] })).toBe(true);
    expect(apply({ regex_test: ['^v=spf1', null] })).toBe(false);
  });

  it('string, list and object helpers', () => {
    expect(apply({ starts_with: ['https://a', 'https://'] })).toBe(true);
    expect(apply({ ends_with: ['a.test', '.test'] })).toBe(true);
    expect(apply({ lower: ['GPTBot'] })).toBe('gptbot');
    expect(apply({ length: [[1, 2, 3]] })).toBe(3);
    expect(apply({ length: [null] })).toBe(0);
    expect(apply({ contains: [['h2', 'http/1.1'], 'h2'] })).toBe(true);
    expect(apply({ contains_any: [['a'], ['b', 'a']] })).toBe(true);
    expect(apply({ keys: [{ b: 1, a: 2 }] })).toEqual(['a', 'b']);
    expect(apply({ get: [{ var: 'headers' }, 'a.b'] }, { headers: { 'a.b': 7 } })).toBe(7);
    expect(apply({ present: [0] })).toBe(true);
    expect(apply({ present: [null] })).toBe(false);
    expect(apply({ between: [5, 1, 10] })).toBe(true);
  });

  it('semver and dates', () => {
    expect(apply({ semver_satisfies: ['2025-06-18', '>=1'] })).toBe(true);
    expect(apply({ semver_satisfies: ['1.2.3', '^1.2'] })).toBe(true);
    expect(apply({ semver_satisfies: ['garbage', '^1'] })).toBe(false);
    expect(apply({ days_between: ['2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z'] })).toBe(30);
    expect(apply({ days_between: ['2026-01-01T00:00:00Z', 'never'] })).toBe(null);
    expect(apply({ is_date: ['2026-01-01T00:00:00Z'] })).toBe(true);
  });

  it('never throws on arbitrary JSON arguments', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(OPERATIONS)),
        fc.array(fc.jsonValue(), { maxLength: 3 }),
        (op, args) => {
          if (op === 'regex_test' && typeof args[0] === 'string') args[0] = 'a+';
          expect(() => OPERATIONS[op]!(...args)).not.toThrow();
        },
      ),
    );
  });
});

describe('dates in the form probes write, read without Date.parse', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const iso = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
      fc.option(fc.integer({ min: 0, max: 999 })),
    )
    .map(([y, mo, d, h, mi, s, ms]) => {
      const frac = ms === null ? '' : `.${pad(ms, 3)}`;
      return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac}Z`;
    });
  // Near misses: one character of a valid date replaced, dropped or added.
  const mangled = fc
    .tuple(iso, fc.nat(30), fc.constantFrom('', 'x', '0', '9', ' ', '+', 'z', '.', ':', '-'))
    .map(([s, at, c]) => s.slice(0, at % (s.length + 1)) + c + s.slice((at % (s.length + 1)) + 1));

  it('days_between and is_date agree with Date.parse on any such string', () => {
    fc.assert(
      fc.property(fc.oneof(iso, mangled), fc.oneof(iso, mangled), (a, b) => {
        const pa = Date.parse(a);
        const pb = Date.parse(b);
        const want = Number.isNaN(pa) || Number.isNaN(pb) ? null : (pb - pa) / 86_400_000;
        expect(OPERATIONS.days_between!(a, b)).toBe(want);
        expect(OPERATIONS.is_date!(a)).toBe(!Number.isNaN(pa));
      }),
      { numRuns: 5000 },
    );
  });
});
