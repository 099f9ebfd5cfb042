// The json-logic operations rules may use beyond the standard set. Each is pure and total: it reads only its
// arguments, never a clock or the network, and answers null-ish input with a defined value instead of throwing,
// so a missing fact cannot crash an evaluation (the engine turns missing required facts into `error` first).
import jsonLogic from 'json-logic-js';
import { lazyRequire } from '../lib/lazy-require.ts';

// semver is some fifty modules: loaded with the first rule that compares versions, not with the engine.
const semverModule = lazyRequire<typeof import('semver')>('semver');

type Op = (...args: unknown[]) => unknown;

const regexCache = new Map<string, RegExp>();

function regex(pattern: unknown, flags: unknown): RegExp | null {
  if (typeof pattern !== 'string') return null;
  const f = typeof flags === 'string' ? flags.replace(/[^imsu]/g, '') : '';
  const key = `${f}/${pattern}`;
  let re = regexCache.get(key);
  if (!re) {
    re = new RegExp(pattern, f);
    regexCache.set(key, re);
  }
  return re;
}

const DAY_MS = 86_400_000;

function time(iso: unknown): number | null {
  if (typeof iso !== 'string') return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

function size(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return 0;
}

/** The operations, by name. Documented for rule authors in docs/rule-authoring.md. */
export const OPERATIONS: Record<string, Op> = {
  /** regex_test(pattern, value, flags?) -> value is a string and matches. */
  regex_test: (pattern, value, flags) => typeof value === 'string' && (regex(pattern, flags)?.test(value) ?? false),
  /** starts_with(value, prefix) / ends_with(value, suffix): string tests, false for non-strings. */
  starts_with: (value, prefix) => typeof value === 'string' && typeof prefix === 'string' && value.startsWith(prefix),
  ends_with: (value, suffix) => typeof value === 'string' && typeof suffix === 'string' && value.endsWith(suffix),
  /** lower(value): lower-cased string, or null. */
  lower: (value) => (typeof value === 'string' ? value.toLowerCase() : null),
  /** length(value): characters of a string, items of a list, keys of an object; 0 for anything else. */
  length: (value) => size(value),
  /** contains(haystack, needle): list membership or substring; false for anything else. */
  contains: (haystack, needle) =>
    Array.isArray(haystack)
      ? haystack.includes(needle)
      : typeof haystack === 'string' && typeof needle === 'string' && haystack.includes(needle),
  /** contains_any(list, candidates): any candidate is an item of the list. */
  contains_any: (list, candidates) =>
    Array.isArray(list) &&
    Array.isArray(candidates) &&
    candidates.some((c: unknown) => (list as unknown[]).includes(c)),
  /** keys(object): its keys, sorted; [] for anything else. */
  keys: (value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).sort() : [],
  /** get(object, key): a property by a computed key (for keys with dots), or null. */
  get: (obj, key) =>
    obj !== null && typeof obj === 'object' && typeof key === 'string' && Object.hasOwn(obj, key)
      ? (obj as Record<string, unknown>)[key]
      : null,
  /** present(value): not null and not undefined. */
  present: (value) => value !== null && value !== undefined,
  /** between(x, lo, hi): lo <= x <= hi for numbers; false otherwise. */
  between: (x, lo, hi) =>
    typeof x === 'number' && typeof lo === 'number' && typeof hi === 'number' && x >= lo && x <= hi,
  /** semver_satisfies(version, range): false for a version or range that does not parse. */
  semver_satisfies: (version, range) => {
    const semver = semverModule();
    if (typeof version !== 'string' || typeof range !== 'string') return false;
    const v = semver.coerce(version);
    return v !== null && semver.validRange(range) !== null && semver.satisfies(v, range);
  },
  /** days_between(from, to): whole and fractional days from one ISO date to another; null if either is unreadable. */
  days_between: (from, to) => {
    const a = time(from);
    const b = time(to);
    return a === null || b === null ? null : (b - a) / DAY_MS;
  },
  /** is_date(value): an ISO date-time string that parses. */
  is_date: (value) => time(value) !== null,
};

let registered = false;

/** Registers the operations with json-logic-js once per process (it keeps one global table). */
export function registerOperations(): void {
  if (registered) return;
  for (const [name, op] of Object.entries(OPERATIONS)) jsonLogic.add_operation(name, op);
  registered = true;
}

/** Every operation name a rule may use: json-logic's standard set plus ours. */
export const STANDARD_OPERATIONS = [
  'var',
  'missing',
  'missing_some',
  'if',
  '?:',
  '==',
  '===',
  '!=',
  '!==',
  '!',
  '!!',
  'or',
  'and',
  '>',
  '>=',
  '<',
  '<=',
  'max',
  'min',
  '+',
  '-',
  '*',
  '/',
  '%',
  'map',
  'filter',
  'reduce',
  'all',
  'none',
  'some',
  'merge',
  'in',
  'cat',
  'substr',
  'log',
] as const;

export const KNOWN_OPERATIONS: ReadonlySet<string> = new Set([
  ...STANDARD_OPERATIONS.filter((op) => op !== 'log'),
  ...Object.keys(OPERATIONS),
]);
