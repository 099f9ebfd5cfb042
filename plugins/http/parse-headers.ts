// Response header values parsed into facts. Input maps have lower-cased names and repeated headers
// comma-joined (src/net contract); each function reads one header's grammar.
import { parseDictionary } from 'structured-headers';
import type { CacheControl, PermissionsPolicy } from './types.ts';

export type HeaderMap = Readonly<Record<string, string>>;

export function header(headers: HeaderMap, name: string): string | null {
  return Object.hasOwn(headers, name) ? headers[name]! : null;
}

export function parseCacheControl(value: string | null): CacheControl | null {
  if (value === null) return null;
  const directives = new Set<string>();
  let maxAge: number | null = null;
  for (const part of value.split(',')) {
    const [name = '', arg] = part.split('=');
    const key = name.trim().toLowerCase();
    if (key === '') continue;
    directives.add(key);
    const n = arg?.trim().replace(/^"|"$/g, '');
    if (key === 'max-age' && n !== undefined && /^\d+$/.test(n)) maxAge = Number(n);
  }
  return { raw: value, directives: [...directives].sort(), max_age: maxAge };
}

/** A comma-separated token list, lower-cased, de-duplicated and sorted. */
export function tokenList(value: string | null): string[] {
  if (value === null) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t !== ''),
    ),
  ].sort();
}

/** ALPN ids advertised by Alt-Svc (RFC 7838 section 3); `clear` advertises none. */
export function altSvcProtocols(value: string | null): string[] {
  if (value === null) return [];
  const ids = new Set<string>();
  for (const entry of value.split(',')) {
    const m = /^\s*([^=\s;]+)\s*=/.exec(entry);
    if (m) ids.add(decodeURIComponent(m[1]!).toLowerCase());
  }
  return [...ids].sort();
}

/** An HTTP-date (RFC 9110 section 5.6.7) as ISO 8601 UTC. */
export function httpDate(value: string | null): string | null {
  if (value === null) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const REFERRER_POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]);

/** The policy a browser applies: the last recognised token (W3C Referrer Policy section 8.1). */
export function referrerPolicy(value: string | null): string | null {
  if (value === null) return null;
  const tokens = value.split(',').map((t) => t.trim().toLowerCase());
  return tokens.filter((t) => REFERRER_POLICIES.has(t)).at(-1) ?? null;
}

/** Permissions-Policy is a Structured Fields dictionary (RFC 9651); its keys are the feature names. */
export function permissionsPolicy(value: string | null): PermissionsPolicy {
  if (value === null) return { raw: null, features: [], parse_error: null };
  try {
    return { raw: value, features: [...parseDictionary(value).keys()].sort(), parse_error: null };
  } catch (err) {
    return { raw: value, features: [], parse_error: (err as Error).message };
  }
}

/** The token of a single-token header (COOP, COEP, CORP, X-Content-Type-Options), parameters dropped. */
export function firstToken(value: string | null): string | null {
  if (value === null) return null;
  const token = value.split(',')[0]!.split(';')[0]!.trim().toLowerCase();
  return token === '' ? null : token;
}

/** X-Frame-Options: repeated identical values count as one (HTML section 7.1.7); differing ones stay joined. */
export function frameOptions(value: string | null): string | null {
  if (value === null) return null;
  const values = tokenList(value);
  return values.length === 1 ? values[0]! : values.join(', ');
}

/** The names from `candidates` present in the map, sorted. */
export function presentHeaders(headers: HeaderMap, candidates: readonly string[]): string[] {
  return candidates.filter((name) => Object.hasOwn(headers, name)).sort();
}
