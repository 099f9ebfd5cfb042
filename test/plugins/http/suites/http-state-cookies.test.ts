// The Set-Cookie parser against the http-state parser tests (github.com/abarth/http-state, commit 155e45c6168e,
// tests/data/parser.json, copied unchanged into data/; the DISABLED_ cases are left out as the suite does). Each
// case is a sequence of Set-Cookie headers received at http://home.example.org:8888/cookie-parser?<id> and the
// cookies a user agent then sends. Our parser reads each header; the minimal store below (RFC 6265bis sections
// 5.7 and 5.8.3: domain and path matching, replacement, expiry, ordering) decides what would be sent. The probe
// records no cookie values, so the names sent, in order, are compared.
import { readFileSync } from 'node:fs';
import { getPublicSuffix } from 'tldts';
import { describe, expect, it } from 'vitest';
import { defaultPath, parseSetCookie } from '../../../../plugins/http/parse-cookies.ts';
import { expectAgreement } from '../../suite-agreement.ts';

interface Case {
  test: string;
  received: string[];
  'sent-to'?: string;
  sent: { name: string; value: string }[];
}

const CASES = (
  JSON.parse(readFileSync(new URL('./data/http-state-parser.json', import.meta.url), 'utf8')) as Case[]
).filter((c) => !c.test.startsWith('DISABLED_'));

/** The suite dates from 2011 (RFC 6265); its Expires dates are judged from that time. */
const NOW = '2011-04-01T00:00:00.000Z';

interface Stored {
  name: string;
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
  jar.push({ name: c.name, domain, hostOnly, path, created: old?.created ?? created });
}

/** The names of the cookies sent to a URL, longer paths first, then older first (section 5.8.3). */
function sent(jar: Stored[], url: URL): string[] {
  return jar
    .filter((s) => (s.hostOnly ? url.hostname === s.domain : domainMatch(url.hostname, s.domain)))
    .filter((s) => pathMatch(url.pathname, s.path))
    .sort((a, b) => b.path.length - a.path.length || a.created - b.created)
    .map((s) => s.name);
}

function names(c: Case): string[] {
  const jar: Stored[] = [];
  const setAt = new URL(`http://home.example.org:8888/cookie-parser?${c.test}`);
  c.received.forEach((header, i) => store(jar, header, setAt, i));
  const target = c['sent-to'] ?? `/cookie-parser-result?${c.test}`;
  return sent(jar, new URL(target, 'http://home.example.org:8888/'));
}

/**
 * Judged disagreements: nameless cookies (`foo`, `=abc`, `"foo;bar"=baz`, whose pair before ";" has no "=").
 * RFC 6265 (2011, the suite's basis) ignores a Set-Cookie whose pair lacks "=" or has an empty name; RFC 6265bis
 * section 5.6 step 3 keeps it as a cookie named "" (`foo` is its value), as browsers now do. We follow RFC 6265bis,
 * so the suite, not the parser, is out of date here: the copy of these tests that web-platform-tests kept
 * (cookies/http-state) was changed to expect the nameless cookie sent back (`Cookie: foo` for 0004, as quoted in
 * httpwg/http-extensions issue 1081). In 0021, MOZILLA0012 and MOZILLA0017 the nameless cookie sits among named
 * ones, which agree.
 */
const JUDGED = Object.fromEntries(
  [
    '0004',
    '0021',
    '0023',
    '0024',
    '0025',
    '0026',
    '0027',
    '0028',
    'CHROMIUM0009',
    'CHROMIUM0010',
    'CHROMIUM0012',
    'MOZILLA0012',
    'MOZILLA0014',
    'MOZILLA0015',
    'MOZILLA0016',
    'MOZILLA0017',
    'NAME0017',
    'NAME0023',
    'NAME0025',
    'NAME0028',
    'NAME0031',
    'NAME0032',
    'NAME0033',
  ].map((id) => [id, 'a nameless cookie, kept by RFC 6265bis section 5.6']),
);

const outcomes = CASES.map((c) => ({
  id: c.test,
  agrees: JSON.stringify(names(c)) === JSON.stringify(c.sent.map((s) => s.name)),
}));

describe('Set-Cookie against the http-state parser tests', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  // 195 of 218: the 23 nameless cookies (the suite's RFC 6265 against RFC 6265bis) keep it under the 97 % floor.
  it('agrees on every case but the judged ones', () => {
    expectAgreement('http-state cookies', outcomes, JUDGED, 0.89);
  });
});
