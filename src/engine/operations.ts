// The json-logic operations rules may use beyond the standard set. Each is pure and total: it reads only its
// arguments, never a clock or the network, and answers null-ish input with a defined value instead of throwing,
// so a missing fact cannot crash an evaluation (the engine turns missing required facts into `error` first).
import { lazyRequire } from '../lib/lazy-require.ts';

// semver is some fifty modules: loaded with the first rule that compares versions, not with the engine.
const semverModule = lazyRequire<typeof import('semver')>('semver');

type Op = (...args: unknown[]) => unknown;

const regexCache = new Map<string, RegExp>();

/** The RegExp regex_test uses for a pattern and flags (made once each; null for a pattern that is not a string). */
export function regexOf(pattern: unknown, flags: unknown): RegExp | null {
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
  const t = utcTime(iso) ?? Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/** The digits of s from `from` to `to` as a number, or -1 if any is not a digit. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * What Date.parse gives for the form every probe writes (`2026-01-01T00:00:00Z`, optionally with milliseconds),
 * read without the general parser, which costs several times more; null for anything else, including dates
 * whose fields Date.parse would roll over (a 29th to 31st day, hour 24), which are left to Date.parse.
 */
export function utcTime(s: string): number | null {
  const ms = s.length === 24 ? digits(s, 20, 23) : 0;
  if ((s.length !== 20 && (s.length !== 24 || s.charCodeAt(19) !== 46 || ms < 0)) || s.charCodeAt(s.length - 1) !== 90)
    return null;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return null;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return null;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 7);
  const day = digits(s, 8, 10);
  const hour = digits(s, 11, 13);
  const minute = digits(s, 14, 16);
  const second = digits(s, 17, 19);
  // Date.UTC reads years below 100 as 19xx: those, too, go to Date.parse.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 28) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

function size(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return 0;
}

/** The operations, by name. Documented for rule authors in docs/rule-authoring.md. */
export const OPERATIONS: Record<string, Op> = {
  /** regex_test(pattern, value, flags?) -> value is a string and matches. */
  regex_test: (pattern, value, flags) => typeof value === 'string' && (regexOf(pattern, flags)?.test(value) ?? false),
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

/** A literal argument of an operation, known at load; null for an argument computed per evaluation. */
export type Literal = { value: unknown } | null;

/**
 * The operation specialised for its literal arguments (a regex made, a semver range parsed once): a function of
 * the same arguments giving the same results, or null where there is nothing to prepare.
 */
export function prepareOperation(op: string, literals: readonly Literal[]): Op | null {
  if (op === 'regex_test' && literals.length <= 3 && typeof literals[0]?.value === 'string') {
    const flags = literals.length === 3 ? literals[2] : { value: undefined };
    if (!flags) return null;
    let re: RegExp | null = null;
    try {
      re = regexOf(literals[0].value, flags.value);
    } catch {
      // An invalid pattern is left to the operation itself, which fails when the rule is evaluated.
    }
    if (!re) return null;
    const prepared = re;
    return (_pattern, value) => typeof value === 'string' && prepared.test(value);
  }
  if (op === 'semver_satisfies' && literals.length === 2 && typeof literals[1]?.value === 'string') {
    const text = literals[1].value;
    // The range is parsed on the first call, so loading the rules does not load semver.
    let range: import('semver').Range | null | undefined;
    return (version) => {
      if (typeof version !== 'string') return false;
      const semver = semverModule();
      if (range === undefined) range = semver.validRange(text) === null ? null : new semver.Range(text);
      const v = semver.coerce(version);
      return range !== null && v !== null && range.test(v);
    };
  }
  return null;
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
