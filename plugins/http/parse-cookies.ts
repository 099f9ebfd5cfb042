// Set-Cookie parsed with the algorithm of RFC 6265bis section 5.6 ("The Set-Cookie Header Field"), which is
// what browsers do: attribute names are case-insensitive, an attribute browsers would ignore (a bad date, a
// non-numeric Max-Age, an empty Domain, a value over 1024 octets) is left out, and where an attribute repeats
// the last one that counts wins. Facts are what the site asked for: lifetimes are not capped at 400 days here,
// so a rule can tell the site that the cap cuts its cookie short.
import { parseCookieDate } from './cookie-date.ts';
import type { Cookie } from './types.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

/** Where the cookie was set and the scan's fixed time, for the facts that depend on them. */
export interface CookieContext {
  url: string;
  onFinalResponse: boolean;
  observedAt: string;
}

/** %x00-08 / %x0A-1F / %x7F: a set-cookie-string holding one is ignored entirely (section 5.6 step 1). */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if ((c <= 0x1f && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}
const trimWsp = (s: string): string => trimOf(s, SPACE_OR_TAB);
const MAX_NAME_VALUE = 4096;
const MAX_ATTRIBUTE_VALUE = 1024;
const SAME_SITE: Record<string, Cookie['same_site']> = { none: 'none', strict: 'strict', lax: 'lax' };

function octets(value: string): number {
  return Buffer.byteLength(value, 'latin1');
}

function prefixOf(name: string): Cookie['prefix'] {
  const lower = name.toLowerCase();
  if (lower.startsWith('__host-')) return '__Host-';
  if (lower.startsWith('__secure-')) return '__Secure-';
  return null;
}

/** default-path (RFC 6265bis section 5.1.4): the request path up to its last "/", or "/". */
export function defaultPath(url: string): string {
  const path = new URL(url).pathname;
  if (!path.startsWith('/') || path.lastIndexOf('/') === 0) return '/';
  return path.slice(0, path.lastIndexOf('/'));
}

/** A cookie-pair as read by section 5.6 steps 1 to 5: the name and value, or why the whole string is ignored. */
export interface CookiePair {
  name: string;
  value: string;
  rejected: string | null;
}

/**
 * Section 5.6 steps 1 to 5. The probe records no values; the value is returned because the size limit counts it,
 * and the cookie suites compare the cookie-string a user agent would send.
 */
export function parseCookiePair(header: string): CookiePair {
  if (hasControl(header)) return { name: '', value: '', rejected: 'set-cookie-string: holds a control character' };
  const semi = header.indexOf(';');
  const pair = semi === -1 ? header : header.slice(0, semi);
  const eq = pair.indexOf('=');
  // Without "=", the whole pair is the value and the name is empty.
  const name = eq === -1 ? '' : trimWsp(pair.slice(0, eq));
  const value = eq === -1 ? trimWsp(pair) : trimWsp(pair.slice(eq + 1));
  if (name === '' && value === '')
    return { name, value, rejected: 'cookie-pair: the name and the value are both empty' };
  if (octets(name) + octets(value) > MAX_NAME_VALUE)
    return { name, value, rejected: 'cookie-pair: the name and the value exceed 4096 octets' };
  return { name, value, rejected: null };
}

/** The attributes as (lower-cased name, value) pairs, in order, without those over the size limit. */
function attributes(header: string): [string, string][] {
  const semi = header.indexOf(';');
  if (semi === -1) return [];
  const out: [string, string][] = [];
  for (const av of header.slice(semi + 1).split(';')) {
    const eq = av.indexOf('=');
    const name = trimWsp(eq === -1 ? av : av.slice(0, eq)).toLowerCase();
    const value = eq === -1 ? '' : trimWsp(av.slice(eq + 1));
    if (octets(value) <= MAX_ATTRIBUTE_VALUE) out.push([name, value]);
  }
  return out;
}

/** Max-Age (section 5.6.2): an optional "-" then DIGITs; anything else is ignored. */
function maxAge(value: string): number | null {
  if (!/^-?\d+$/.test(value)) return null;
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number(value), Number.MAX_SAFE_INTEGER));
}

function expires(value: string): string | null {
  try {
    return new Date(parseCookieDate(value)).toISOString();
  } catch {
    return null;
  }
}

function applyAttribute(cookie: Cookie, name: string, value: string, url: string): void {
  switch (name) {
    case 'secure':
      cookie.secure = true;
      break;
    case 'httponly':
      cookie.http_only = true;
      break;
    case 'samesite':
      cookie.same_site = SAME_SITE[value.toLowerCase()] ?? 'default';
      break;
    case 'domain':
      // An empty Domain is ignored (section 5.6.3), so an earlier one stays in force; "Domain=." leaves an
      // empty domain-attribute, which makes the cookie host-only (section 5.7 step 5): null.
      if (value !== '') cookie.domain = value.replace(/^\./, '').toLowerCase() || null;
      break;
    case 'path':
      cookie.path = value.startsWith('/') ? value : defaultPath(url);
      break;
    case 'expires':
      cookie.expires = expires(value) ?? cookie.expires;
      break;
    case 'max-age':
      cookie.max_age = maxAge(value) ?? cookie.max_age;
      break;
  }
}

export function parseSetCookie(header: string, ctx: CookieContext): Cookie {
  const { name, rejected } = parseCookiePair(header);
  const cookie: Cookie = {
    name,
    url: ctx.url,
    over_https: ctx.url.startsWith('https:'),
    on_final_response: ctx.onFinalResponse,
    rejected,
    secure: false,
    http_only: false,
    same_site: null,
    domain: null,
    path: null,
    expires: null,
    max_age: null,
    lifetime_s: null,
    prefix: prefixOf(name),
  };
  if (rejected === null) for (const [key, value] of attributes(header)) applyAttribute(cookie, key, value, ctx.url);
  // Max-Age wins over Expires (section 5.6.2).
  if (cookie.max_age !== null) cookie.lifetime_s = cookie.max_age;
  else if (cookie.expires !== null)
    cookie.lifetime_s = Math.round((Date.parse(cookie.expires) - Date.parse(ctx.observedAt)) / 1000);
  return cookie;
}

/** The cookies one response sets, ordered by name so the facts do not depend on header order. */
export function parseCookiesOf(
  setCookies: readonly string[],
  url: string,
  onFinalResponse: boolean,
  observedAt: string,
): Cookie[] {
  return setCookies
    .map((h) => parseSetCookie(h, { url, onFinalResponse, observedAt }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
