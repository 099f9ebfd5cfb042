// json-logic compiled once into closures, so an evaluation never walks the rule's JSON again. json-logic-js is
// the reference semantics (test/engine/compiled.test.ts runs every rule of the catalogue through both): the
// same lazy `if`/`and`/`or`, the same list operations and scoping, the same loose comparisons and coercions,
// and the same errors for what it refuses (an unknown operation, `*` without arguments). A rule's top-level `var`s
// do not walk the document: they read the value the evaluation plan looked up once for that path and document.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-base-to-string --
   json-logic's operators take any JSON value and coerce as JavaScript does; typing them narrower would change
   the semantics the reference defines. */
import { OPERATIONS, prepareOperation, type Literal } from './operations.ts';

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

/**
 * What a rule's top-level logic is applied to: the document, and the value json-logic's `var` finds at each of
 * the rule's top-level paths (`undefined` where the path is missing, before any default applies).
 */
export interface RootInput {
  readonly doc: unknown;
  read(k: number): unknown;
}

/**
 * Where logic is compiled: inside a list operation (`data` is the item, scope null), or at the top of a rule, where
 * `data` is a RootInput and each literal var path gets a number in `paths`.
 */
type Scope = { paths: string[] } | null;

const rootDoc = (input: unknown): unknown => (input as RootInput).doc;

function pathIndex(scope: { paths: string[] }, path: string): number {
  const i = scope.paths.indexOf(path);
  return i === -1 ? scope.paths.push(path) - 1 : i;
}

function compileVar(args: unknown[], parts: Compiled[], scope: Scope): Compiled {
  const [path, fallback] = args;
  const literalPath = typeof path === 'string' || typeof path === 'number';
  if (literalPath && !isLogic(fallback) && !Array.isArray(fallback)) {
    if (path === '') return scope ? rootDoc : (data) => data;
    if (!scope) return varAt(String(path).split('.'), fallback);
    const k = pathIndex(scope, String(path));
    const notFound = fallback === undefined ? null : fallback;
    return (input) => {
      const v = (input as RootInput).read(k);
      return v === undefined ? notFound : v;
    };
  }
  if (scope) return (input) => readVar(rootDoc(input), parts[0]?.(input), parts[1]?.(input));
  return (data) => readVar(data, parts[0]?.(data), parts[1]?.(data));
}

/** A top-level var of a literal path and default: where `read` finds its value, and what stands in for none. */
function rootVar(node: unknown, scope: Scope): { k: number; notFound: unknown } | null {
  if (!scope || !isLogic(node) || !Object.hasOwn(node, 'var')) return null;
  const [path, fallback] = Array.isArray(node.var) ? (node.var as unknown[]) : [node.var];
  if (typeof path !== 'string' && typeof path !== 'number') return null;
  if (path === '' || isLogic(fallback) || Array.isArray(fallback)) return null;
  return { k: pathIndex(scope, String(path)), notFound: fallback === undefined ? null : fallback };
}

/** A top-level var's value: a plain function, so the closures that read one call no other closure for it. */
function at(input: unknown, k: number, notFound: unknown): unknown {
  const v = (input as RootInput).read(k);
  return v === undefined ? notFound : v;
}

/** The list operations: the list from the first argument, the second compiled against each item. */
function compileList(op: string, parts: Compiled[], args: unknown[], scope: Scope): Compiled | null {
  if (!LIST_OPS.has(op)) return null;
  const source = parts[0] ?? constant(undefined);
  // The per-item logic sees the item (or {current, accumulator}), never the top-level input.
  const inner = args.length > 1 ? compileIn(args[1], null) : constant(undefined);
  switch (op) {
    case 'filter':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list)) return [];
        const out: unknown[] = [];
        for (let i = 0; i < list.length; i++) if (truthy(inner(list[i]))) out.push(list[i]);
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
      const initial = args.length > 2 && args[2] !== undefined ? compileIn(args[2], scope) : constant(null);
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
        for (let i = 0; i < list.length; i++) if (!truthy(inner(list[i]))) return false;
        return true;
      };
    case 'none':
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list) || list.length === 0) return true;
        for (let i = 0; i < list.length; i++) if (truthy(inner(list[i]))) return false;
        return true;
      };
    default:
      return (data) => {
        const list = source(data);
        if (!Array.isArray(list) || list.length === 0) return false;
        for (let i = 0; i < list.length; i++) if (truthy(inner(list[i]))) return true;
        return false;
      };
  }
}

const LIST_OPS = new Set(['filter', 'map', 'reduce', 'all', 'none', 'some']);

/** `if`/`?:`, `and`, `or`: evaluated lazily, left to right (two operands, the common case, without a loop). */
function compileLazy(op: string, parts: Compiled[]): Compiled | null {
  if (op === 'if' || op === '?:') {
    return (data) => {
      let i = 0;
      for (; i < parts.length - 1; i += 2) if (truthy(parts[i]!(data))) return parts[i + 1]!(data);
      return i === parts.length - 1 ? parts[i]!(data) : null;
    };
  }
  if (op !== 'and' && op !== 'or') return null;
  if (parts.length === 2) {
    const [a, b] = parts as [Compiled, Compiled];
    if (op === 'and')
      return (data) => {
        const x = a(data);
        return truthy(x) ? b(data) : x;
      };
    return (data) => {
      const x = a(data);
      return truthy(x) ? x : b(data);
    };
  }
  const stopOn = op === 'or';
  return (data) => {
    let current: unknown;
    for (let i = 0; i < parts.length; i++) {
      current = parts[i]!(data);
      if (truthy(current) === stopOn) return current;
    }
    return current;
  };
}

/** A literal operand (no logic inside): its value, known at load. */
function literal(node: unknown): Literal {
  if (isLogic(node)) return null;
  if (!Array.isArray(node)) return { value: node };
  return node.some((n) => isLogic(n) || Array.isArray(n)) ? null : { value: structuredClone(node) };
}

/** Comparisons against a literal right operand (most of the catalogue's): one closure, the literal in it. */
const AGAINST_LITERAL: Record<string, (a: Compiled, k: any) => Compiled> = {
  '==': (a, k) => (data) => a(data) == k,
  '===': (a, k) => (data) => a(data) === k,
  '!=': (a, k) => (data) => a(data) != k,
  '!==': (a, k) => (data) => a(data) !== k,
  '>': (a, k) => (data) => (a(data) as any) > k,
  '>=': (a, k) => (data) => (a(data) as any) >= k,
  '<': (a, k) => (data) => (a(data) as any) < k,
  '<=': (a, k) => (data) => (a(data) as any) <= k,
};

/** The same comparisons of a top-level var (the catalogue's commonest test), its value read in place. */
const VAR_AGAINST_LITERAL: Record<string, (k: number, nf: unknown, c: any) => Compiled> = {
  '==': (k, nf, c) => (input) => at(input, k, nf) == c,
  '===': (k, nf, c) => (input) => at(input, k, nf) === c,
  '!=': (k, nf, c) => (input) => at(input, k, nf) != c,
  '!==': (k, nf, c) => (input) => at(input, k, nf) !== c,
  '>': (k, nf, c) => (input) => (at(input, k, nf) as any) > c,
  '>=': (k, nf, c) => (input) => (at(input, k, nf) as any) >= c,
  '<': (k, nf, c) => (input) => (at(input, k, nf) as any) < c,
  '<=': (k, nf, c) => (input) => (at(input, k, nf) as any) <= c,
};

/** Operations with literal arguments, prepared at load: comparisons, `in` a literal list, and the engine's own. */
function compileWithLiterals(op: string, args: unknown[], parts: Compiled[], scope: Scope): Compiled | null {
  if (args.length === 2 && Object.hasOwn(AGAINST_LITERAL, op)) {
    const k = literal(args[1]);
    const v = rootVar(args[0], scope);
    if (k && v) return VAR_AGAINST_LITERAL[op]!(v.k, v.notFound, k.value);
    if (k) return AGAINST_LITERAL[op]!(parts[0]!, k.value);
  }
  if (op === 'in' && args.length === 2) {
    const list = literal(args[1])?.value;
    // An empty string is no list to json-logic: `in` it is false.
    if (Array.isArray(list) || (typeof list === 'string' && list !== '')) {
      const a = parts[0]!;
      return (data) => list.indexOf(a(data) as never) !== -1;
    }
  }
  // contains(keys(x), "name"): whether x has that key, without listing and sorting its keys.
  const needle = args.length === 2 ? literal(args[1])?.value : undefined;
  if (op === 'contains' && typeof needle === 'string' && isLogic(args[0]) && Object.keys(args[0])[0] === 'keys') {
    const inner = args[0].keys;
    const of = Array.isArray(inner) ? inner : [inner];
    if (of.length === 1) {
      const object = compileIn(of[0], scope);
      return (data) => {
        const o = object(data);
        return (
          o !== null &&
          typeof o === 'object' &&
          !Array.isArray(o) &&
          Object.prototype.propertyIsEnumerable.call(o, needle)
        );
      };
    }
  }
  const literals = args.map(literal);
  const fn = literals.some((l) => l !== null) ? prepareOperation(op, literals) : null;
  return fn && callOf(fn, parts);
}

/** A call of fn with every part evaluated first, in order. */
function callOf(fn: Op, parts: Compiled[]): Compiled {
  if (parts.length === 1) {
    const [a] = parts as [Compiled];
    return (data) => fn(a(data));
  }
  if (parts.length === 2) {
    const [a, b] = parts as [Compiled, Compiled];
    return (data) => fn(a(data), b(data));
  }
  if (parts.length === 3) {
    const [a, b, c] = parts as [Compiled, Compiled, Compiled];
    return (data) => fn(a(data), b(data), c(data));
  }
  return (data) => fn(...applyAll(parts, data));
}

/** An eager operation: every argument first, then the function (the standard ones, then the engine's). */
function compileCall(op: string, args: unknown[], parts: Compiled[], scope: Scope): Compiled {
  const raw = scope ? rootDoc : (data: unknown) => data;
  if (op === 'missing') return (data) => missing(applyAll(parts, data), raw(data));
  if (op === 'missing_some')
    return (data) => {
      const [need, options] = applyAll(parts, data) as [unknown, unknown];
      const doc = raw(data);
      // json-logic-js hands the options to `missing` as logic: a list is spread, anything else is one argument.
      const list = Array.isArray(options) ? options.map((o) => compileLogic(o)(doc)) : [compileLogic(options)(doc)];
      const absent = missing(list, doc);
      return (options as { length: number } | null)!.length - absent.length >= (need as number) ? [] : absent;
    };
  const fn = Object.hasOwn(STANDARD, op) ? STANDARD[op]! : Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op]! : null;
  if (!fn)
    return (data) => {
      applyAll(parts, data);
      throw new Error(`Unrecognized operation ${op}`);
    };
  const v = parts.length === 1 ? rootVar(args[0], scope) : null;
  if (v) return (input) => fn(at(input, v.k, v.notFound));
  return callOf(fn, parts);
}

function compileIn(node: unknown, scope: Scope): Compiled {
  if (Array.isArray(node)) {
    // json-logic-js makes a list literal anew at each use: one of its own per site, so two are never one object.
    if (!node.some((n) => isLogic(n) || Array.isArray(n))) return constant(structuredClone(node));
    const items = node.map((n) => compileIn(n, scope));
    return (data) => applyAll(items, data);
  }
  if (!isLogic(node)) return constant(node);
  const op = Object.keys(node)[0]!;
  const raw = node[op];
  const args = Array.isArray(raw) ? raw : [raw];
  if (LIST_OPS.has(op)) {
    // Only the list (and reduce's initial value) is in this scope: the per-item logic is compiled apart.
    const source = args.length > 0 ? [compileIn(args[0], scope)] : [];
    return compileList(op, source, args, scope)!;
  }
  const parts = args.map((a) => compileIn(a, scope));
  if (op === 'var') return compileVar(args, parts, scope);
  return compileLazy(op, parts) ?? compileWithLiterals(op, args, parts, scope) ?? compileCall(op, args, parts, scope);
}

/** Compiles a json-logic expression over plain data; the closure never reads the JSON it came from. */
export function compileLogic(node: unknown): Compiled {
  return compileIn(node, null);
}

/**
 * Compiles logic to apply at the top of a rule: the closure takes a RootInput, and `paths` (extended here) numbers
 * the top-level var paths it reads, the k of `read(k)`.
 */
export function compileRootLogic(node: unknown, paths: string[]): Compiled {
  return compileIn(node, { paths });
}

/** A RootInput that looks each path up when asked: for one rule over one document outside an evaluation plan. */
export function rootInput(doc: unknown, paths: readonly string[]): RootInput {
  return { doc, read: (k) => lookupVar(doc, paths[k]!) };
}

/** json-logic's `var` lookup of a literal path at the document root, `undefined` where it finds nothing. */
export function lookupVar(doc: unknown, path: string): unknown {
  const v = readVar(doc, path, MISSING);
  return v === MISSING ? undefined : v;
}

const MISSING = Symbol('missing');

/** A rule ready to evaluate: its required paths split once, its logic compiled. */
export interface CompiledRule {
  requires: { path: string; namespace: string; segments: string[] }[];
  /** The top-level var paths of `when` and `check`: what `read(k)` of their RootInput means. */
  paths: string[];
  when: Compiled | null;
  check: Compiled;
}

/** Whether a rule that requires `requires` may read `p` (the target's name and date are every rule's). */
export function underRequires(p: string, requires: readonly string[]): boolean {
  return p === 'target.observed_at' || p === 'target.domain' || requires.some((r) => p === r || p.startsWith(r + '.'));
}

/**
 * Compiles a rule's logic. Its vars read the document directly, so a rule reading beyond its `requires` (which
 * loading refuses with the rule's file and reason) is refused here too: no compiled rule sees an undeclared path.
 */
export function compileRule(rule: { requires: readonly string[]; when?: unknown; check: unknown }): CompiledRule {
  const paths: string[] = [];
  const compiled = {
    requires: rule.requires.map((path) => {
      const segments = path.split('.');
      return { path, namespace: segments[0]!, segments };
    }),
    paths,
    when: rule.when === undefined ? null : compileRootLogic(rule.when, paths),
    check: compileRootLogic(rule.check, paths),
  };
  const outside = paths.filter((p) => !underRequires(p, rule.requires));
  if (outside.length > 0) throw new Error(`the rule reads ${outside.join(', ')}, not under its requires`);
  return compiled;
}
