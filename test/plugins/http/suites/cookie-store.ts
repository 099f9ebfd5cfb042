// A minimal cookie store for the cookie suites, which expect what a user agent sends after a run of Set-Cookie
// headers: our parser reads each header, and this store applies RFC 6265bis sections 5.7 (storage: domain, path,
// Secure and prefixes, replacement, expiry) and 5.8.3 (the cookie-string, ordered). Public suffixes come from tldts.
import { getPublicSuffix } from 'tldts';
import { defaultPath, parseCookiePair, parseSetCookie } from '../../../../plugins/http/parse-cookies.ts';

interface Stored {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  created: number;
}

const domainMatch = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
const pathMatch = (path: string, cookiePath: string) =>
  path === cookiePath || (path.startsWith(cookiePath) && (cookiePath.endsWith('/') || path[cookiePath.length] === '/'));

export class CookieStore {
  private readonly jar: Stored[] = [];
  private clock = 0;

  /** `now` is the time Expires dates are judged from. */
  constructor(private readonly now: string) {}

  /** Stores one Set-Cookie header received from `url` (section 5.7), or drops it. */
  receive(header: string, url: URL): void {
    const c = parseSetCookie(header, { url: url.href, onFinalResponse: true, observedAt: this.now });
    if (c.rejected !== null) return;
    const secureOrigin = url.protocol === 'https:';
    // Secure and the prefixes need a secure origin; __Host- also a host-only cookie with Path=/ (5.7 steps 13-21).
    if ((c.secure || c.prefix !== null) && !secureOrigin) return;
    if (c.prefix !== null && !c.secure) return;
    if (c.prefix === '__Host-' && (c.domain !== null || c.path !== '/')) return;
    let domain = url.hostname;
    let hostOnly = true;
    if (c.domain !== null) {
      // A Domain that is a public suffix only stands for the host itself (section 5.7 step 9).
      const publicSuffix = getPublicSuffix(c.domain, { allowPrivateDomains: true }) === c.domain;
      if ((publicSuffix && c.domain !== url.hostname) || !domainMatch(url.hostname, c.domain)) return;
      if (!publicSuffix) [domain, hostOnly] = [c.domain, false];
    }
    const path = c.path ?? defaultPath(url.href);
    const same = this.jar.findIndex((s) => s.name === c.name && s.domain === domain && s.path === path);
    const old = same >= 0 ? this.jar.splice(same, 1)[0]! : null;
    this.clock += 1;
    if (c.lifetime_s !== null && c.lifetime_s <= 0) return;
    const { value } = parseCookiePair(header);
    this.jar.push({
      name: c.name,
      value,
      domain,
      hostOnly,
      path,
      secure: c.secure,
      created: old?.created ?? this.clock,
    });
  }

  /** The cookie-string sent to a URL (section 5.8.3): longer paths first, then older first; a nameless cookie is
   * sent as its value alone. */
  cookieString(url: URL): string {
    return this.jar
      .filter((s) => (s.hostOnly ? url.hostname === s.domain : domainMatch(url.hostname, s.domain)))
      .filter((s) => pathMatch(url.pathname, s.path))
      .filter((s) => !s.secure || url.protocol === 'https:')
      .sort((a, b) => b.path.length - a.path.length || a.created - b.created)
      .map((s) => (s.name === '' ? s.value : `${s.name}=${s.value}`))
      .join('; ');
  }
}
