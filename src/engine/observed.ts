// What a result says it saw: the values its rule read, each cut to a bounded size, so a report stays small
// whatever a probe found and the values are as deterministic as the evidence they come from.
import { sortedKeys } from '../lib/sorted-keys.ts';
import { analyseLogic } from './logic-analysis.ts';
import type { Rule } from './types.ts';

/** Characters kept of a string; what is cut is marked with an ellipsis. */
export const MAX_STRING = 120;
/** Items kept of a list, keys kept of an object (in sorted order). */
export const MAX_ITEMS = 8;
/** Values (scalars and containers) kept of one observed value, counted in document order. */
export const MAX_NODES = 40;
/** Nesting kept below the observed value itself. */
export const MAX_DEPTH = 3;

/** The observation paths a rule reads at the document root (its `when` and `check` vars), sorted. */
export function readPaths(rule: Pick<Rule, 'when' | 'check'>): string[] {
  const paths = new Set<string>();
  for (const logic of [rule.when, rule.check]) {
    if (logic !== undefined) for (const p of analyseLogic(logic).rootPaths) paths.add(p);
  }
  return [...paths].sort();
}

function cutString(s: string): string {
  if (s.length <= MAX_STRING) return s;
  let end = MAX_STRING;
  // Never split a surrogate pair: a lone surrogate has no UTF-8 form and could not be canonicalised or signed.
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}… (${s.length} characters)`;
}

/**
 * A JSON value cut to the bounds above; containers past a bound end with a note of what was left out. A value
 * already within them (objects with their keys in sorted order) is returned itself: most observed values are,
 * and a copy would be equal to it.
 */
export function bounded(value: unknown): unknown {
  // Most observed values are scalars: nothing to count.
  if (typeof value === 'string') return cutString(value);
  if (value === null || typeof value !== 'object') return value ?? null;
  nodesLeft = MAX_NODES;
  if (fits(value, 0)) return value;
  budget = MAX_NODES;
  return cut(value, 0);
}

/** The node budget of `fits`, module-level so checking allocates nothing. */
let nodesLeft = 0;

/** Whether `cut` would give back an equal value (same keys in the same order): it counts nodes the same way. */
function fits(v: unknown, depth: number): boolean {
  nodesLeft -= 1;
  if (typeof v === 'string') return v.length <= MAX_STRING;
  if (v === null) return true;
  if (typeof v !== 'object') return v !== undefined;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    if (v.length > MAX_ITEMS) return false;
    for (let i = 0; i < v.length; i++) if (nodesLeft <= 0 || !fits(v[i], depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(v);
  if (keys.length > MAX_ITEMS) return false;
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1]! < keys[i]!)) return false;
    if (nodesLeft <= 0 || !fits((v as Record<string, unknown>)[keys[i]!], depth + 1)) return false;
  }
  return true;
}

/** How many own keys an object has, counted without listing them. */
function keyCount(v: object): number {
  let n = 0;
  for (const key in v) if (Object.hasOwn(v, key)) n += 1;
  return n;
}

/** Nodes `cut` may still keep of the value it is cutting (module-level, as for `fits`). */
let budget = 0;

function cut(v: unknown, depth: number): unknown {
  budget -= 1;
  if (typeof v === 'string') return cutString(v);
  if (v === null || typeof v !== 'object') return v ?? null;
  if (Array.isArray(v)) {
    if (depth >= MAX_DEPTH) return `[${v.length} items]`;
    // Made at its final length where it can be: grown item by item, it was copied as it grew.
    const room = Math.min(v.length, MAX_ITEMS, Math.max(budget, 0));
    const out = new Array<unknown>(room);
    let kept = 0;
    while (kept < room && budget > 0) {
      out[kept] = cut(v[kept], depth + 1);
      kept += 1;
    }
    if (kept < room) out.length = kept;
    if (kept < v.length) out.push(`… ${v.length - kept} more`);
    return out;
  }
  if (depth >= MAX_DEPTH) return `{${keyCount(v)} keys}`;
  const keys = sortedKeys(v);
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (let i = 0; i < keys.length; i++) {
    if (kept === MAX_ITEMS || budget <= 0) break;
    const key = keys[i]!;
    const value = cut((v as Record<string, unknown>)[key], depth + 1);
    // A document a probe parsed may hold an own `__proto__` member: assigned, it would set the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
    kept += 1;
  }
  if (kept < keys.length) out['…'] = `${keys.length - kept} more keys`;
  return out;
}

/** The value at a dotted path, or null when any step is missing. */
export function valueAt(doc: unknown, segments: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const part of segments) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return null;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur ?? null;
}
