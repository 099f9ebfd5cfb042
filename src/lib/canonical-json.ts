// Canonical JSON (RFC 8785, JCS): one byte sequence per JSON value, so digests and signatures do not depend on
// key order or formatting. The serialiser is the `canonicalize` package; this module first refuses anything
// that is not plain JSON data, because the library silently drops or rewrites such values (a function becomes
// `undefined`, a Date goes through toJSON) and a signed document must mean exactly what it says.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

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

/** The RFC 8785 canonical form of a plain JSON value; throws CanonicalJsonError on anything else. */
export function canonicalJson(value: unknown): string {
  assertPlain(value, '$', new Set());
  try {
    // Never undefined here: assertPlain admitted only values the serialiser emits.
    return canonicalize(value)!;
  } catch (err) {
    // What remains for the library to refuse: strings with lone surrogates, which have no UTF-8 form.
    throw new CanonicalJsonError((err as Error).message);
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
