import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  canonicalBytes,
  canonicalJson,
  CanonicalJsonError,
  digestOf,
  sha256Hex,
} from '../../src/lib/canonical-json.ts';

const fromIeeeHex = (hex: string): number => Buffer.from(hex, 'hex').readDoubleBE(0);

/** The same value with every object's keys in another order (reversed, or rotated by `shift`). */
function reorder(value: unknown, shift: number): unknown {
  if (Array.isArray(value)) return value.map((v) => reorder(v, shift));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const n = entries.length;
  const order = n === 0 ? [] : entries.map((_, i) => entries[(i + shift) % n]!).reverse();
  const out: Record<string, unknown> = {};
  for (const [k, v] of order)
    Object.defineProperty(out, k, { value: reorder(v, shift), enumerable: true, writable: true, configurable: true });
  return out;
}

describe('canonicalJson: RFC 8785 vectors', () => {
  // Appendix B: IEEE 754 bit patterns and their ECMAScript serialisation.
  const numbers: Array<[string, string]> = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  it.each(numbers)('number %s serialises as %s', (hex, expected) => {
    expect(canonicalJson(fromIeeeHex(hex))).toBe(expected);
  });

  it.each(['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000'])('refuses the non-finite number %s', (hex) => {
    expect(() => canonicalJson([fromIeeeHex(hex)])).toThrow(CanonicalJsonError);
  });

  it('serialises the section 3.2.2 example', () => {
    const input: unknown = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('sorts properties by UTF-16 code units (section 3.2.3)', () => {
    const input: unknown = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    // Read the order from the text: parsing would put the integer-like key "1" first again.
    const order = [...canonicalJson(input).matchAll(/"([^"]*)":"[^"]*"/g)].map((m) => m[1]);
    expect(order).toEqual(['\\r', '1', '\u0080', 'ö', '€', '😀', '\ufb33']);
  });

  it('writes UTF-8 bytes', () => {
    expect(Buffer.from(canonicalBytes({ e: '€' })).toString('hex')).toBe(
      Buffer.from('{"e":"€"}', 'utf8').toString('hex'),
    );
    expect([...canonicalBytes('€')]).toEqual([0x22, 0xe2, 0x82, 0xac, 0x22]);
  });
});

describe('canonicalJson refuses what is not plain JSON data', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const cases: Array<[string, unknown, RegExp]> = [
    ['a function property', { f: () => 1 }, /\$\.f: a function/],
    ['undefined inside an object', { a: 1, b: undefined }, /\$\.b: undefined/],
    ['undefined inside an array', [1, undefined], /\$\[1\]: undefined/],
    ['a hole in an array', Object.assign(new Array<number>(3), { 0: 1, 2: 3 }), /\$\[1\]: hole/],
    ['NaN', { n: Number.NaN }, /\$\.n: NaN/],
    ['Infinity', { n: [Number.POSITIVE_INFINITY] }, /\$\.n\[0\]: Infinity/],
    ['a BigInt', { n: 10n }, /\$\.n: a bigint/],
    ['a symbol', Symbol('s'), /a symbol/],
    ['a symbol-keyed property', { [Symbol('k')]: 1 }, /symbol-keyed/],
    ['a Date', { d: new Date(0) }, /Date is not plain/],
    ['a Map', new Map(), /Map is not plain/],
    [
      'a class instance',
      {
        c: new (class Point {
          x = 1;
        })(),
      },
      /Point is not plain/,
    ],
    ['a cycle', cycle, /circular/],
    ['a lone surrogate', { s: '\ud800' }, /surrogate/i],
    ['undefined itself', undefined, /undefined/],
  ];
  it.each(cases)('%s', (_name, value, message) => {
    expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(value)).toThrow(message);
  });

  it('accepts an object without a prototype and repeated (non-circular) references', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    const shared = { x: 1 };
    expect(canonicalJson(bare)).toBe('{"a":2,"b":1}');
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('canonicalJson properties', () => {
  it('parse(canonical(x)) deep-equals x (with -0 read as 0, as RFC 8785 serialises it)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        const positiveZero: unknown = JSON.parse(JSON.stringify(x)); // JSON.stringify also writes -0 as 0
        expect(JSON.parse(canonicalJson(x))).toStrictEqual(positiveZero);
      }),
    );
  });

  it('the key order of the input never changes the output', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(10), (x, shift) => {
        expect(canonicalJson(reorder(x, shift))).toBe(canonicalJson(x));
      }),
    );
  });

  it('is stable under re-canonicalisation', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        const once = canonicalJson(x);
        expect(canonicalJson(JSON.parse(once))).toBe(once);
      }),
    );
  });

  it('gives one output per value: equal outputs exactly when the values are equal', () => {
    const sameOrOther = fc
      .jsonValue()
      .chain((a) => fc.tuple(fc.constant(a), fc.oneof(fc.constant(reorder(a, 1)), fc.jsonValue())));
    fc.assert(
      fc.property(sameOrOther, ([a, b]) => {
        expect(canonicalJson(a) === canonicalJson(b)).toBe(isDeepStrictEqual(a, b));
      }),
    );
  });
});

/** The `canonicalize` package's answer, or that it refused. */
function reference(value: unknown): string {
  try {
    return canonicalize(value) ?? 'refused';
  } catch {
    return 'refused';
  }
}

function ours(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch (err) {
    if (err instanceof CanonicalJsonError) return 'refused';
    throw err;
  }
}

describe('canonicalJson against the canonicalize package, its independent implementation', () => {
  // Strings from the units where serialisers go wrong: escapes, controls, separators, surrogates alone and paired.
  const unit = fc.oneof(
    fc.constantFrom(
      '"',
      '\\',
      '/',
      '\u0000',
      '\u0008',
      '\u001f',
      '\u007f',
      '\u2028',
      '\u20ac',
      '😀',
      '\ud800',
      '\udfff',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  const text = fc.string({ unit, maxLength: 12 });
  const number = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(-0, 5e-324, 1e21, 1e-7, 9007199254740991),
  );
  const value = fc.letrec<{ json: unknown }>((tie) => ({
    json: fc.oneof(
      { depthSize: 'small' },
      text,
      number,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('json'), { maxLength: 5 }),
      fc.dictionary(text, tie('json'), { maxKeys: 6 }),
      // Past the few keys sorted by insertion: the other sort.
      fc.dictionary(text, number, { minKeys: 20, maxKeys: 60 }),
    ),
  })).json;

  it('writes the same text for any JSON value, and refuses the same (lone surrogates)', () => {
    fc.assert(
      fc.property(value, (x) => {
        expect(ours(x)).toBe(reference(x));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the same text for every saved observations document', () => {
    const dir = path.join(import.meta.dirname, '..', 'golden');
    const files = [
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(dir, f)),
      ...readdirSync(path.join(dir, 'world')).map((f) => path.join(dir, 'world', f)),
    ];
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const doc: unknown = JSON.parse(readFileSync(f, 'utf8'));
      expect(canonicalJson(doc), f).toBe(canonicalize(doc));
    }
  });
});

describe('digests', () => {
  it('sha256Hex matches the FIPS 180-2 "abc" vector, for text and bytes', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('abc')).toBe(abc);
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(abc);
  });

  it('digestOf hashes the canonical form, whatever the key order', () => {
    expect(digestOf({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe(sha256Hex('{"a":"x","b":[1,{"c":2,"d":1}]}'));
    expect(digestOf({ a: 'x', b: [1, { c: 2, d: 1 }] })).toBe(digestOf({ b: [1, { d: 1, c: 2 }], a: 'x' }));
    expect(digestOf({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
