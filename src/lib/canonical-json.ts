// Canonical JSON (RFC 8785, JCS): one byte sequence per JSON value, so digests and signatures do not depend on
// key order or formatting. Anything that is not plain JSON data is refused, because a signed document must mean
// exactly what it says (a serialiser that drops a function or calls a Date's toJSON would sign something else).
// The serialiser is written here for speed over plain data: numbers as ECMAScript writes them, strings as
// JSON.stringify escapes them, properties in UTF-16 code-unit order, as the RFC says. The `canonicalize` package
// is its independent check in the tests (test/lib/canonical-json.test.ts).
import { createHash } from 'node:crypto';

declare global {
  interface String {
    /** ES2024, in Node 20: false when the string holds a lone surrogate (which has no UTF-8 form). */
    isWellFormed(): boolean;
  }
}

export class CanonicalJsonError extends Error {
  override name = 'CanonicalJsonError';
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null)
    return `an instance of ${value.constructor?.name ?? 'an unknown class'}`;
  return value === undefined ? 'undefined' : `a ${typeof value}`;
}

function assertPlain(value: unknown, where: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`${where}: ${describe(value)} is not a JSON number`);
      return;
    case 'object': {
      if (value === null) return;
      if (seen.has(value)) throw new CanonicalJsonError(`${where}: circular reference`);
      if (Array.isArray(value)) {
        seen.add(value);
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw new CanonicalJsonError(`${where}[${i}]: hole in array`);
          assertPlain(value[i], `${where}[${i}]`, seen);
        }
        seen.delete(value);
        return;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null)
        throw new CanonicalJsonError(`${where}: ${describe(value)} is not plain JSON data`);
      if (Object.getOwnPropertySymbols(value).length > 0)
        throw new CanonicalJsonError(`${where}: symbol-keyed property`);
      seen.add(value);
      for (const [key, item] of Object.entries(value)) assertPlain(item, `${where}.${key}`, seen);
      seen.delete(value);
      return;
    }
    default:
      throw new CanonicalJsonError(`${where}: ${describe(value)} is not JSON data`);
  }
}

/** Thrown by `write` at a value it refuses (made once: it carries no detail); the checked walk then names it. */
const REFUSED = new Error('not plain JSON data');

/**
 * What JSON.stringify escapes (control characters, quote, backslash), and surrogates, which must be checked for
 * a lone one. Searched by the regular expression engine, not by a loop over char codes in JavaScript: once the
 * ruleset's digests had passed the loop their strings, V8's code for it ran at half speed, and the good site's
 * evidence took 750 us to canonicalise instead of 350 (bench/evaluate.bench.ts); with the regular expression,
 * 356 us either way.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A string as JSON.stringify writes it (RFC 8785's string form); most are quoted as they are. */
function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  if (!s.isWellFormed()) throw new CanonicalJsonError('a string with a lone surrogate has no UTF-8 form');
  return JSON.stringify(s);
}

/**
 * Sorts keys in UTF-16 code-unit order (RFC 8785's), moving each value with its key: by insertion for the handful
 * of keys most objects have, through a sorted index for more.
 */
function sortTogether(keys: string[], values: unknown[]): void {
  if (keys.length > 24) {
    const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
    const k = order.map((i) => keys[i]!);
    const v = order.map((i) => values[i]);
    for (let i = 0; i < k.length; i++) {
      keys[i] = k[i]!;
      values[i] = v[i];
    }
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    const v = values[i];
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      values[j + 1] = values[j];
      j--;
    }
    keys[j + 1] = k;
    values[j + 1] = v;
  }
}

/** The canonical text of a value, refusing (with REFUSED) anything assertPlain would. */
function write(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      // ECMAScript's Number to String is RFC 8785's number form (and writes -0 as 0).
      if (!Number.isFinite(value)) throw REFUSED;
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        // A hole reads as undefined, which is refused like undefined itself.
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + write(value[i]);
        return out + ']';
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(value).length > 0)
        throw REFUSED;
      // Keys and values taken by the builtins and sorted together: reading each value by its key would go
      // through a property cache shared with every other object shape the process has seen.
      const keys = Object.keys(value);
      const values = Object.values(value);
      sortTogether(keys, values);
      let out = '{';
      for (let i = 0; i < keys.length; i++) out += (i === 0 ? '' : ',') + quote(keys[i]!) + ':' + write(values[i]);
      return out + '}';
    }
    default:
      throw REFUSED;
  }
}

/** The RFC 8785 canonical form of a plain JSON value; throws CanonicalJsonError on anything else. */
export function canonicalJson(value: unknown): string {
  try {
    return write(value);
  } catch (err) {
    // A refused value, or a cycle (the writer recursed until the stack ran out): the checked walk names it.
    if (err !== REFUSED && !(err instanceof RangeError)) throw err as Error;
    assertPlain(value, '$', new Set());
    throw err === REFUSED ? new CanonicalJsonError('not plain JSON data') : (err as RangeError);
  }
}

/** The UTF-8 bytes of the canonical form: what gets hashed and signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return new Uint8Array(Buffer.from(canonicalJson(value), 'utf8'));
}

/** Lower-case hex SHA-256 of a canonical form (string as UTF-8, or its bytes). */
export function sha256Hex(canonical: string | Uint8Array): string {
  return createHash('sha256').update(canonical).digest('hex');
}

/** Lower-case hex SHA-256 of the value's canonical form. */
export function digestOf(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
