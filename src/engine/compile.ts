// json-logic compiled once into closures, so an evaluation never walks the rule's JSON again. json-logic-js is
// the reference semantics (test/engine/compiled.test.ts runs every rule of the catalogue through both): the
// same lazy `if`/`and`/`or`, the same list operations and scoping, the same loose comparisons and coercions,
// and the same errors for what it refuses (an unknown operation, `*` without arguments).
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-base-to-string --
   json-logic's operators take any JSON value and coerce as JavaScript does; typing them narrower would change
   the semantics the reference defines. */
import { OPERATIONS } from './operations.ts';

/** A compiled expression: the value of the logic for one data object (the document, or a list item). */
export type Compiled = (data: unknown) => unknown;

type Op = (...args: any[]) => unknown;

/** json-logic's truthiness: JavaScript's, except that an empty list is false. */
export function truthy(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0 ? false : Boolean(value);
}

const STANDARD: Record<string, Op> = {
  '==': (a, b) => a == b,
  '===': (a, b) => a === b,
  '!=': (a, b) => a != b,
  '!==': (a, b) => a !== b,

  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b, c) => (c === undefined ? a < b : a < b && b < c),
  '<=': (a, b, c) => (c === undefined ? a <= b : a <= b && b <= c),
  '!!': (a) => truthy(a),
  '!': (a) => !truthy(a),
  '%': (a, b) => a % b,
  in: (a, b) => (!b || typeof b.indexOf === 'undefined' ? false : b.indexOf(a) !== -1),
  cat: (...xs: unknown[]) => xs.join(''),
  substr: (source, start, end) => {
    if (end < 0) {
      const rest = String(source).substr(start);
      return rest.substr(0, rest.length + end);
    }
    return String(source).substr(start, end);
  },
  '+': (...xs: unknown[]) => xs.reduce<number>((sum, x) => sum + parseFloat(x as string), 0),
  '*': (...xs: unknown[]) => xs.reduce((p, x) => parseFloat(p as string) * parseFloat(x as string)),
  '-': (a, b) => (b === undefined ? -a : a - b),
  '/': (a, b) => a / b,
  min: (...xs: number[]) => Math.min(...xs),
  max: (...xs: number[]) => Math.max(...xs),
  merge: (...xs: unknown[]) => xs.reduce<unknown[]>((all, x) => all.concat(x), []),
};

/** `var`: a dotted path into the data; "" (or nothing) is the data itself; a missing step gives the default. */
function readVar(data: unknown, path: unknown, fallback: unknown): unknown {
  const notFound = fallback === undefined ? null : fallback;
  if (path === undefined || path === '' || path === null) return data;
  let cur = data as any;
  for (const part of String(path).split('.')) {
    if (cur === null || cur === undefined) return notFound;
    cur = cur[part];
    if (cur === undefined) return notFound;
  }
  return cur;
}

/** The same as readVar for a path known at load: split once. */
function varAt(segments: readonly string[], fallback: unknown): Compiled {
  const notFound = fallback === undefined ? null : fallback;
  if (segments.length === 1) {
    const key = segments[0]!;
    return (data) => {
      if (data === null || data === undefined) return notFound;
      const v = (data as any)[key];
      return v === undefined ? notFound : v;
    };
  }
  return (data) => {
    let cur = data as any;
    for (let i = 0; i < segments.length; i++) {
      if (cur === null || cur === undefined) return notFound;
      cur = cur[segments[i]!];
      if (cur === undefined) return notFound;
    }
    return cur;
  };
}

/** `missing`: its arguments are the keys, unless the first is a list of them. */
function missing(args: unknown[], data: unknown): unknown[] {
  const keys = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  const out: unknown[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    // json-logic-js reads each key as {var: key}: a list or object key is itself logic there.
    const value =
      key !== null && typeof key === 'object' ? compileLogic({ var: key })(data) : readVar(data, key, undefined);
    if (value === null || value === '') out.push(key);
  }
  return out;
}

function isLogic(node: unknown): node is Record<string, unknown> {
  return typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).length === 1;
}

/** Every part over the data, in order. A loop, not `map` with an arrow: no closure is made per evaluation. */
function applyAll(parts: readonly Compiled[], data: unknown): unknown[] {
  const out = new Array<unknown>(parts.length);
  for (let i = 0; i < parts.length; i++) out[i] = parts[i]!(data);
  return out;
}

const constant =
  (value: unknown): Compiled =>
  () =>
    value;

function compileVar(args: unknown[], parts: Compiled[]): Compiled {
  const [path, fallback] = args;
  const literalPath = typeof path === 'string' || typeof path === 'number';
  if (literalPath && !isLogic(fallback) && !Array.isArray(fallback)) {
    if (path === '') return (data) => data;
    return varAt(String(path).split('.'), fallback);
  }
  return (data) => readVar(data, parts[0]?.(data), parts[1]?.(data));
}

/** The list operations: the list from the first argument, the second compiled against each item. */
function compileList(op: string, parts: Compiled[], args: unknown[]): Compiled | null {
  const source = parts[0] ?? constant(undefined);
  const inner = parts[1] ?? constant(undefined);
  switch (op) {
    case 'filter':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list)) return [];
        const out: unknown[] = [];
        for (const item of list) if (truthy(inner(item))) out.push(item);
        return out;
      };
    case 'map':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list)) return [];
        const out = new Array<unknown>(list.length);
        for (let i = 0; i < list.length; i++) out[i] = inner(list[i]);
        return out;
      };
    case 'reduce': {
      const initial = args.length > 2 && args[2] !== undefined ? parts[2]! : constant(null);
      return (data) => {
        const list = source(data);
        const start = initial(data);
        if (!Array.isArray(list)) return start;
        let accumulator = start;
        for (const current of list) accumulator = inner({ current, accumulator });
        return accumulator;
      };
    }
    case 'all':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list) || list.length === 0) return false;
        for (const item of list) if (!truthy(inner(item))) return false;
        return true;
      };
    case 'none':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list) || list.length === 0) return true;
        for (const item of list) if (truthy(inner(item))) return false;
        return true;
      };
    case 'some':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list) || list.length === 0) return false;
        for (const item of list) if (truthy(inner(item))) return true;
        return false;
      };
    default:
      return null;
  }
}

/** `if`/`?:`, `and`, `or`: evaluated lazily, left to right. */
function compileLazy(op: string, parts: Compiled[]): Compiled | null {
  if (op === 'if' || op === '?:') {
    return (data) => {
      let i = 0;
      for (; i < parts.length - 1; i += 2) if (truthy(parts[i]!(data))) return parts[i + 1]!(data);
      return i === parts.length - 1 ? parts[i]!(data) : null;
    };
  }
  if (op === 'and' || op === 'or') {
    const stopOn = op === 'or';
    return (data) => {
      let current: unknown;
      for (const part of parts) {
        current = part(data);
        if (truthy(current) === stopOn) return current;
      }
      return current;
    };
  }
  return null;
}

/** An eager operation: every argument first, then the function (the standard ones, then the engine's). */
function compileCall(op: string, parts: Compiled[]): Compiled {
  if (op === 'missing') return (data) => missing(applyAll(parts, data), data);
  if (op === 'missing_some')
    return (data) => {
      const [need, options] = applyAll(parts, data) as [unknown, unknown];
      // json-logic-js hands the options to `missing` as logic: a list is spread, anything else is one argument.
      const list = Array.isArray(options) ? options.map((o) => compileLogic(o)(data)) : [compileLogic(options)(data)];
      const absent = missing(list, data);
      return (options as { length: number } | null)!.length - absent.length >= (need as number) ? [] : absent;
    };
  const fn = Object.hasOwn(STANDARD, op) ? STANDARD[op]! : Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op]! : null;
  if (!fn)
    return (data) => {
      applyAll(parts, data);
      throw new Error(`Unrecognized operation ${op}`);
    };
  if (parts.length === 1) {
    const [a] = parts as [Compiled];
    return (data) => fn(a(data));
  }
  if (parts.length === 2) {
    const [a, b] = parts as [Compiled, Compiled];
    return (data) => fn(a(data), b(data));
  }
  return (data) => fn(...applyAll(parts, data));
}

/** Compiles a json-logic expression; the closure never reads the JSON it came from. */
export function compileLogic(node: unknown): Compiled {
  if (Array.isArray(node)) {
    if (!node.some((n) => isLogic(n) || Array.isArray(n))) return constant(node);
    const items = node.map(compileLogic);
    return (data) => applyAll(items, data);
  }
  if (!isLogic(node)) return constant(node);
  const op = Object.keys(node)[0]!;
  const raw = node[op];
  const args = Array.isArray(raw) ? raw : [raw];
  const parts = args.map(compileLogic);
  if (op === 'var') return compileVar(args, parts);
  return compileLazy(op, parts) ?? compileList(op, parts, args) ?? compileCall(op, parts);
}

/** A rule ready to evaluate: its required paths split once, its logic compiled. */
export interface CompiledRule {
  requires: { path: string; namespace: string; segments: string[] }[];
  when: Compiled | null;
  check: Compiled;
}

export function compileRule(rule: { requires: readonly string[]; when?: unknown; check: unknown }): CompiledRule {
  return {
    requires: rule.requires.map((path) => {
      const segments = path.split('.');
      return { path, namespace: segments[0]!, segments };
    }),
    when: rule.when === undefined ? null : compileLogic(rule.when),
    check: compileLogic(rule.check),
  };
}
