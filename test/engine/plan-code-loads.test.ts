// Path values read by generated loads are the values a keyed step from each parent's value reads, whatever the
// keys hold (members every object inherits, `__proto__`, quotes, index-like keys) and whatever the document
// holds at each step (null, strings, lists); a step without an earlier parent is refused, not generated.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathLoads, type PathStep } from '../../src/engine/plan-code.ts';

const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'length', '0', '1', '"', '\\', '\u2028', '${x}', '`'),
);

/** A list of steps whose parents come before them, as a plan numbers its paths. */
const steps = fc
  .array(fc.tuple(fc.nat(), key), { minLength: 1, maxLength: 120 })
  .map((raw) => raw.map(([p, k], i): PathStep => ({ parent: (p % (i + 1)) - 1, key: k })));

function keyed(list: readonly PathStep[], doc: unknown): unknown[] {
  const values: unknown[] = [];
  list.forEach(({ parent, key: k }, i) => {
    const from = parent < 0 ? doc : values[parent];
    values[i] = from === null || from === undefined ? undefined : (from as Record<string, unknown>)[k];
  });
  return values;
}

describe('pathLoads', () => {
  it('reads what a keyed step from each parent reads', () => {
    const doc = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(steps, doc, (list, d) => {
        const values = new Array<unknown>(list.length);
        pathLoads(list)(d, values);
        expect(values).toEqual(keyed(list, d));
      }),
      { numRuns: 1000 },
    );
  });

  it("reads a parsed document's own __proto__ member, and an inherited member where the document has none", () => {
    const doc = JSON.parse('{"__proto__":{"a":1},"b":"xy"}') as unknown;
    const values = new Array<unknown>(4);
    pathLoads([
      { parent: -1, key: '__proto__' },
      { parent: 0, key: 'a' },
      { parent: -1, key: 'b' },
      { parent: 2, key: 'length' },
    ])(doc, values);
    expect(values).toEqual([{ a: 1 }, 1, 'xy', 2]);
  });

  it('refuses a step whose parent is not an earlier step', () => {
    expect(() => pathLoads([{ parent: 0, key: 'a' }])).toThrow(/no earlier parent/);
    expect(() => pathLoads([{ parent: -2, key: 'a' }])).toThrow(/no earlier parent/);
    expect(() => pathLoads([{ parent: 0.5, key: 'a' }])).toThrow(/no earlier parent/);
  });
});
