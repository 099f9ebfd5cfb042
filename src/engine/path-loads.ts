// Every plan path's value, each one step from its parent's, by generated code. One load site fed the plan's
// hundreds of distinct keys is a megamorphic lookup at every step (the evaluation's largest single line); a key
// written into the source is a named load, which V8 caches at its own site for the one shape probes give that
// object. The loads are split into functions of a few dozen, as records.ts splits its literals, for the same
// reason: small functions are optimised soon and cheaply.

/** A path's last step: its parent's index among the paths (-1: the document itself) and the key read there. */
export interface PathStep {
  parent: number;
  key: string;
}

/** Fills `values[i]` with path i's value: its parent's value's member `key`, undefined below null or undefined. */
export type PathLoads = (doc: unknown, values: unknown[]) => void;

/** Steps per generated function: the catalogue's 618 paths make 13 functions, each small enough to optimise soon. */
const PER_FUNCTION = 48;

type Load = (d: unknown, v: unknown[]) => void;

/**
 * The loads of these steps, in their order; a parent comes before its children. The source is built only from
 * JSON.stringify'd keys and integer indices checked here, so nothing in a rule file becomes code. A bracketed
 * string key reads what `value[key]` reads, inherited members and `__proto__` included, as json-logic does.
 */
export function pathLoads(steps: readonly PathStep[]): PathLoads {
  const lines = steps.map(({ parent, key }, i) => {
    if (!Number.isSafeInteger(parent) || parent < -1 || parent >= i)
      throw new Error(`pathLoads: step ${i} has no earlier parent (${parent})`);
    const from = parent < 0 ? 'd' : `v[${parent}]`;
    return `x = ${from}; v[${i}] = x === null || x === undefined ? undefined : x[${JSON.stringify(key)}];`;
  });
  const loads: Load[] = [];
  for (let first = 0; first < lines.length; first += PER_FUNCTION) {
    const body = ['let x;', ...lines.slice(first, first + PER_FUNCTION)].join('\n');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- written above from checked keys and indices only
    loads.push(new Function('d', 'v', body) as Load);
  }
  return (doc, values) => {
    for (let i = 0; i < loads.length; i++) loads[i]!(doc, values);
  };
}
