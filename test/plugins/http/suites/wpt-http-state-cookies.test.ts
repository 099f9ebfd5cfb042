// The Set-Cookie parser against the http-state tests as web-platform-tests keeps them, updated to RFC 6265bis
// (wpt cookies/http-state/resources/test-files: the successor of github.com/abarth/http-state's parser.json,
// which follows RFC 6265 and which this suite replaces). WPT's repository is too large to fetch here, so the
// files come from the copy ninenines/gun keeps of them (commit 921c47146b2d, test/wpt/cookies/, "Update the WPT
// cookie tests", April 2020), transcribed into data/wpt-http-state.json: the Set-Cookie lines (the OWS around
// each value dropped, as an HTTP parser does), the Location to read from, and the Cookie header expected. The
// files WPT itself named disabled- are left out. Each case sets its cookies at
// http://home.example.org:8888/cookie-parser?<test>; our parser reads each line, the minimal store below (RFC
// 6265bis sections 5.7 and 5.8.3: domain and path matching, replacement, expiry, ordering) decides what is sent
// to the Location (or /cookie-parser-result?<test>), and the serialized cookie-string is compared.
import { readFileSync } from 'node:fs';
import { getPublicSuffix } from 'tldts';
import { describe, expect, it } from 'vitest';
import { defaultPath, parseCookiePair, parseSetCookie } from '../../../../plugins/http/parse-cookies.ts';
import { expectAgreement } from '../../suite-agreement.ts';

interface Case {
  test: string;
  received: string[];
  location?: string;
  sent: string;
}

const CASES = JSON.parse(readFileSync(new URL('./data/wpt-http-state.json', import.meta.url), 'utf8')) as Case[];

/** The copy dates from April 2020; its Expires dates are judged from then. */
const NOW = '2020-04-20T00:00:00.000Z';

interface Stored {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  created: number;
}

const domainMatch = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
const pathMatch = (path: string, cookiePath: string) =>
  path === cookiePath || (path.startsWith(cookiePath) && (cookiePath.endsWith('/') || path[cookiePath.length] === '/'));

/** Stores one parsed cookie (section 5.7), or drops it; an expired cookie removes the one it replaces. */
function store(jar: Stored[], header: string, url: URL, created: number): void {
  const c = parseSetCookie(header, { url: url.href, onFinalResponse: true, observedAt: NOW });
  if (c.rejected !== null || c.secure || c.prefix !== null) return; // Secure and prefixes need https (5.7)
  let domain = url.hostname;
  let hostOnly = true;
  if (c.domain !== null) {
    // A Domain that is a public suffix only stands for the host itself (section 5.7 step 9).
    const publicSuffix = getPublicSuffix(c.domain, { allowPrivateDomains: true }) === c.domain;
    if ((publicSuffix && c.domain !== url.hostname) || !domainMatch(url.hostname, c.domain)) return;
    if (!publicSuffix) [domain, hostOnly] = [c.domain, false];
  }
  const path = c.path ?? defaultPath(url.href);
  const same = jar.findIndex((s) => s.name === c.name && s.domain === domain && s.path === path);
  const old = same >= 0 ? jar.splice(same, 1)[0]! : null;
  if (c.lifetime_s !== null && c.lifetime_s <= 0) return;
  const { value } = parseCookiePair(header);
  jar.push({ name: c.name, value, domain, hostOnly, path, created: old?.created ?? created });
}

/** The cookie-string sent to a URL (section 5.8.3): longer paths first, then older first; a nameless cookie is
 * sent as its value alone. */
function cookieString(jar: Stored[], url: URL): string {
  return jar
    .filter((s) => (s.hostOnly ? url.hostname === s.domain : domainMatch(url.hostname, s.domain)))
    .filter((s) => pathMatch(url.pathname, s.path))
    .sort((a, b) => b.path.length - a.path.length || a.created - b.created)
    .map((s) => (s.name === '' ? s.value : `${s.name}=${s.value}`))
    .join('; ');
}

function sent(c: Case): string {
  const jar: Stored[] = [];
  const setAt = new URL(`http://home.example.org:8888/cookie-parser?${c.test}`);
  c.received.forEach((header, i) => store(jar, header, setAt, i));
  return cookieString(jar, new URL(c.location ?? `/cookie-parser-result?${c.test}`, setAt));
}

/**
 * Judged disagreement: attribute0023, `foo=bar; Path=/qux; Path=/cookie-parser-result`, read at
 * /cookie-parser-result. RFC 6265bis section 5.7 takes the path from the last Path attribute, so the cookie's path
 * is /cookie-parser-result and it is sent (as the http-state original expected); the WPT copy expects nothing,
 * which is what a page under WPT's own cookies/http-state/resources/ path sees, not what the file's request
 * gets. gun, whose copy this is, leaves the case out for the same reason ("path override").
 */
const JUDGED: Record<string, string> = {
  attribute0023: 'the last Path attribute wins, RFC 6265bis section 5.7',
};

const outcomes = CASES.map((c) => ({ id: c.test, agrees: sent(c) === c.sent }));

describe('Set-Cookie against the web-platform-tests http-state tests (RFC 6265bis)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  it('agrees on at least 97 % of the cases, every disagreement judged', () => {
    expectAgreement('WPT http-state cookies', outcomes, JUDGED);
  });
});
