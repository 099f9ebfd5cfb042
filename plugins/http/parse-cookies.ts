// Set-Cookie (RFC 6265bis section 5.6) parsed into attribute facts. Attribute names are case-insensitive and
// the last occurrence wins, as in browsers; values browsers would ignore (a bad date, a non-numeric
// Max-Age) are left out.
import type { Cookie } from './types.ts';

/** Where the cookie was set and the scan's fixed time, for the facts that depend on them. */
export interface CookieContext {
  url: string;
  onFinalResponse: boolean;
  observedAt: string;
}

// Names that commonly carry a login or session (version 1 of this list; it is a heuristic on names only).
const SESSION_NAMES = new Set([
  'phpsessid',
  'jsessionid',
  'asp.net_sessionid',
  'aspsessionid',
  'connect.sid',
  'sid',
  'ssid',
]);
const SESSION_PATTERN =
  /(^|[^a-z])(sess|session|sessid|sessionid|auth|token|jwt|login|logged_?in|remember_?me)([^a-z]|$)/;

function isSessionLike(name: string): boolean {
  const lower = name.toLowerCase().replace(/^__(host|secure)-/, '');
  return SESSION_NAMES.has(lower) || SESSION_PATTERN.test(lower);
}

function prefixOf(name: string): Cookie['prefix'] {
  const lower = name.toLowerCase();
  if (lower.startsWith('__host-')) return '__Host-';
  if (lower.startsWith('__secure-')) return '__Secure-';
  return null;
}

export function parseSetCookie(header: string, ctx: CookieContext): Cookie {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
  const cookie: Cookie = {
    name,
    url: ctx.url,
    over_https: ctx.url.startsWith('https:'),
    on_final_response: ctx.onFinalResponse,
    secure: false,
    http_only: false,
    same_site: null,
    domain: null,
    path: null,
    expires: null,
    max_age: null,
    lifetime_s: null,
    prefix: prefixOf(name),
    session_like: isSessionLike(name),
  };
  for (const attribute of attributes) {
    const i = attribute.indexOf('=');
    const key = (i === -1 ? attribute : attribute.slice(0, i)).trim().toLowerCase();
    const value = i === -1 ? '' : attribute.slice(i + 1).trim();
    switch (key) {
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.http_only = true;
        break;
      case 'samesite':
        cookie.same_site = value.toLowerCase();
        break;
      case 'domain':
        cookie.domain = value === '' ? null : value.replace(/^\./, '').toLowerCase();
        break;
      case 'path':
        cookie.path = value.startsWith('/') ? value : null;
        break;
      case 'expires': {
        const t = Date.parse(value);
        if (!Number.isNaN(t)) cookie.expires = new Date(t).toISOString();
        break;
      }
      case 'max-age':
        if (/^-?\d+$/.test(value)) cookie.max_age = Number(value);
        break;
    }
  }
  // Max-Age wins over Expires (RFC 6265bis section 5.6.2).
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
