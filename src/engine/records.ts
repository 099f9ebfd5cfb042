// Many small objects of fixed key lists, made by generated object literals: each object is born with its final
// shape (one hidden class per key list, copied from the literal's boilerplate) instead of growing key by key
// through one store site, which for the catalogue's hundreds of distinct dotted keys is a megamorphic lookup and
// a map transition per key. The literals are split into functions of a few each: V8 optimises a small function
// soon and cheaply, where one function of every literal took it over a second to compile (and ran slowly until
// then), and one function per literal would be hundreds of compilations.

/** One record's keys, the i-th read from `values[at[i]]`; its keys' order is the object's. */
export interface RecordShape {
  keys: readonly string[];
  at: readonly number[];
}

/** Makes every record of the shapes, in their order, from one list of values. */
export type RecordsOf = (values: readonly unknown[]) => Record<string, unknown>[];

/** Literals per generated function (measured on the catalogue: 8 to 32 compile fast and run fast). */
const PER_FUNCTION = 16;

type Fill = (values: readonly unknown[], out: Record<string, unknown>[], from: number) => void;

/**
 * The maker of these records. Its source is built only from JSON.stringify'd keys and integer indices checked
 * here, so nothing in a rule file becomes code; `__proto__` is written as a computed key, which a literal stores
 * as an own property instead of setting the prototype.
 */
export function recordsOf(shapes: readonly RecordShape[]): RecordsOf {
  const literals = shapes.map(({ keys, at }) => {
    if (keys.length !== at.length) throw new Error('recordsOf: one index per key');
    const fields = keys.map((k, i) => {
      const index = at[i]!;
      if (!Number.isSafeInteger(index) || index < 0) throw new Error(`recordsOf: ${index} is no index`);
      const key = JSON.stringify(k);
      return `${k === '__proto__' ? `[${key}]` : key}: v[${index}]`;
    });
    return `{ ${fields.join(', ')} }`;
  });
  const fills: Fill[] = [];
  for (let first = 0; first < literals.length; first += PER_FUNCTION) {
    const body = literals.slice(first, first + PER_FUNCTION).map((l, i) => `out[from + ${i}] = ${l};`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- written above from checked keys and indices only
    fills.push(new Function('v', 'out', 'from', body.join('\n')) as Fill);
  }
  const n = shapes.length;
  return (values) => {
    const out = new Array<Record<string, unknown>>(n);
    for (let i = 0; i < fills.length; i++) fills[i]!(values, out, i * PER_FUNCTION);
    return out;
  };
}
