// Records made by generated object literals are the objects the key-by-key form makes: the same own keys in the
// same order, the same values, a plain prototype, whatever the keys hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsOf, type RecordShape } from '../../src/engine/plan-code.ts';

function keyByKey(shape: RecordShape, values: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  shape.keys.forEach((k, i) =>
    Object.defineProperty(out, k, {
      value: values[shape.at[i]!],
      enumerable: true,
      writable: true,
      configurable: true,
    }),
  );
  return out;
}

const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    '0',
    '12',
    '-1',
    'a.b.c',
    '"',
    '\\',
    '\u2028',
    '${x}',
    '`',
    '\ud800',
  ),
);

describe('recordsOf', () => {
  it('makes what the key-by-key form makes, for any keys, in the keys order', () => {
    const values = fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        values.chain((vs) =>
          fc.tuple(
            fc.constant(vs),
            fc.array(
              fc.uniqueArray(key, { maxLength: 6 }).chain((keys) =>
                fc.record({
                  keys: fc.constant(keys),
                  at: fc.array(fc.nat(vs.length - 1), { minLength: keys.length, maxLength: keys.length }),
                }),
              ),
              { maxLength: 40 },
            ),
          ),
        ),
        ([vs, shapes]) => {
          const made = recordsOf(shapes)(vs);
          expect(made).toHaveLength(shapes.length);
          made.forEach((record, i) => {
            const want = keyByKey(shapes[i]!, vs);
            expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
            expect(Object.keys(record)).toEqual(Object.keys(want));
            for (const k of Object.keys(want)) expect(Object.is(record[k], want[k])).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('makes new objects at each call', () => {
    const make = recordsOf([{ keys: ['a'], at: [0] }]);
    const [first] = make([1]);
    const [second] = make([1]);
    expect(first).not.toBe(second);
    expect(first).toEqual({ a: 1 });
  });

  it('refuses an index that is not a list position, and a key without one', () => {
    expect(() => recordsOf([{ keys: ['a'], at: [1.5] }])).toThrow('no index');
    expect(() => recordsOf([{ keys: ['a'], at: [-1] }])).toThrow('no index');
    expect(() => recordsOf([{ keys: ['a', 'b'], at: [0] }])).toThrow('one index per key');
  });
});
