// The one place the engine writes code. An evaluation plan (evaluation-plan.ts) reads the same few hundred
// observation paths from every document and makes the same few hundred `observed` objects from them; done by one
// generic loop, each step is a lookup of a key that changes at every iteration, which V8 can only do the slow
// (megamorphic) way, and each object grows key by key through one store site. So for each plan this module emits:
//
// - path loads: `x = v[parent]; v[i] = x === null || x === undefined ? undefined : x["key"];` per path, a key
//   written into the source being a named load that V8 caches at its own site;
// - records: `out[from + i] = { "key": v[index], ... };` per `observed` object, each object born with its final
//   shape from its literal.
//
// Measured on the catalogue (bench/evaluate.bench.ts, 2026-11-29, shared machine, two runs each): one evaluation
// takes 64-72 us with both, 73-89 us with the loads as a loop, 83-94 us with the records as a loop. Over a process's
// first 1,000 evaluations the generated code costs more (340-356 us against 219-229 us with neither), V8 compiling
// it; the service's steady state is what the figure keeps.
//
// The source is built only from JSON.stringify'd keys and integer indices checked here, so nothing in a rule file
// becomes code. It is split into functions of a few dozen statements: V8 optimises a small function soon and
// cheaply, where one function of every statement took it over a second to compile (and ran slowly until then),
// and one function per statement would be hundreds of compilations.

/** `statements` as functions of `perFunction` statements each, over `params`, each body opening with `preamble`. */
function compiled<F>(
  params: readonly string[],
  statements: readonly string[],
  perFunction: number,
  preamble = '',
): F[] {
  const out: F[] = [];
  for (let first = 0; first < statements.length; first += perFunction) {
    const body = [preamble, ...statements.slice(first, first + perFunction)].join('\n');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- written from checked keys and indices only
    out.push(new Function(...params, body) as F);
  }
  return out;
}

/** A path's last step: its parent's index among the paths (-1: the document itself) and the key read there. */
export interface PathStep {
  parent: number;
  key: string;
}

/** Fills `values[i]` with path i's value: its parent's value's member `key`, undefined below null or undefined. */
export type PathLoads = (doc: unknown, values: unknown[]) => void;

/** Steps per generated function: the catalogue's 618 paths make 13 functions. */
const LOADS_PER_FUNCTION = 48;

/**
 * The loads of these steps, in their order; a parent comes before its children. A bracketed string key reads what
 * `value[key]` reads, inherited members and `__proto__` included, as json-logic does.
 */
export function pathLoads(steps: readonly PathStep[]): PathLoads {
  const lines = steps.map(({ parent, key }, i) => {
    if (!Number.isSafeInteger(parent) || parent < -1 || parent >= i)
      throw new Error(`pathLoads: step ${i} has no earlier parent (${parent})`);
    const from = parent < 0 ? 'd' : `v[${parent}]`;
    return `x = ${from}; v[${i}] = x === null || x === undefined ? undefined : x[${JSON.stringify(key)}];`;
  });
  const loads = compiled<(d: unknown, v: unknown[]) => void>(['d', 'v'], lines, LOADS_PER_FUNCTION, 'let x;');
  return (doc, values) => {
    for (let i = 0; i < loads.length; i++) loads[i]!(doc, values);
  };
}

/** One record's keys, the i-th read from `values[at[i]]`; its keys' order is the object's. */
export interface RecordShape {
  keys: readonly string[];
  at: readonly number[];
}

/** Makes every record of the shapes, in their order, from one list of values. */
export type RecordsOf = (values: readonly unknown[]) => Record<string, unknown>[];

/** Literals per generated function (measured on the catalogue: 8 to 32 compile fast and run fast). */
const RECORDS_PER_FUNCTION = 16;

type Fill = (values: readonly unknown[], out: Record<string, unknown>[], from: number) => void;

/**
 * The maker of these records. `__proto__` is written as a computed key, which a literal stores as an own property
 * instead of setting the prototype.
 */
export function recordsOf(shapes: readonly RecordShape[]): RecordsOf {
  const statements = shapes.map(({ keys, at }, n) => {
    if (keys.length !== at.length) throw new Error('recordsOf: one index per key');
    const fields = keys.map((k, i) => {
      const index = at[i]!;
      if (!Number.isSafeInteger(index) || index < 0) throw new Error(`recordsOf: ${index} is no index`);
      const key = JSON.stringify(k);
      return `${k === '__proto__' ? `[${key}]` : key}: v[${index}]`;
    });
    return `out[from + ${n % RECORDS_PER_FUNCTION}] = { ${fields.join(', ')} };`;
  });
  const fills = compiled<Fill>(['v', 'out', 'from'], statements, RECORDS_PER_FUNCTION);
  const n = shapes.length;
  return (values) => {
    const out = new Array<Record<string, unknown>>(n);
    for (let i = 0; i < fills.length; i++) fills[i]!(values, out, i * RECORDS_PER_FUNCTION);
    return out;
  };
}
