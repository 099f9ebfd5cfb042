// robots.txt parsing and matching against Google's reference parser tests (github.com/google/robotstxt, commit
// 22b355ff8554, robots_test.cc): every IsUserAgentAllowed expectation, transcribed into
// data/google-robotstxt.json (robots.txt, crawler token, URL, allowed), and the GoogleOnly_LineTooLong cases,
// whose 16 KiB lines are built below as the test builds them. Tests of which names a crawler may use
// (IsValidUserAgentToObey) and of the reporting callbacks are about Google's API, not robots.txt, and are left
// out. Tests named GoogleOnly_ are Google's extensions of RFC 9309; every disagreement is judged below.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../../plugins/wellknown/parse-robots.ts';
import { decide } from '../../../../plugins/wellknown/robots-access.ts';
import { expectAgreement } from '../../suite-agreement.ts';

interface Case {
  test: string;
  robots: string;
  agent: string;
  url: string;
  allowed: boolean;
}

const TRANSCRIBED = JSON.parse(
  readFileSync(new URL('./data/google-robotstxt.json', import.meta.url), 'utf8'),
) as Case[];

/** GoogleOnly_LineTooLong: a rule line is cut at 8 * 2083 bytes. */
function lineTooLong(): Case[] {
  const max = 2083 * 8;
  const grow = (head: string, fill: string, directive: string) =>
    head + fill.repeat(max - head.length - directive.length + 1 - head.length);
  const test = 'GoogleOnly_LineTooLong';
  const long = grow('/x/', 'a', 'disallow: ');
  const first = `user-agent: FooBot\ndisallow: ${long}/qux\n`;
  const a = grow('/x/', 'a', 'allow: ');
  const b = grow('/x/', 'b', 'allow: ');
  const second = `user-agent: FooBot\ndisallow: /\nallow: ${a}/qux\nallow: ${b}/qux\n`;
  return [
    { test, robots: first, agent: 'FooBot', url: 'http://foo.bar/fux', allowed: true },
    { test, robots: first, agent: 'FooBot', url: `http://foo.bar${long}/fux`, allowed: false },
    { test, robots: second, agent: 'FooBot', url: 'http://foo.bar/', allowed: false },
    { test, robots: second, agent: 'FooBot', url: `http://foo.bar${a}/qux`, allowed: true },
    { test, robots: second, agent: 'FooBot', url: `http://foo.bar${b}/fux`, allowed: true },
  ];
}

/** The path, parameters and query of a URL as written (no encoding added), "/" when it has none. */
function pathOf(url: string): string {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split('#')[0]!;
  return rest === '' ? '/' : rest;
}

const allowed = (c: Case) =>
  decide(parseRobots(new TextEncoder().encode(c.robots)), c.agent, pathOf(c.url)).decision === 'allow';

const CASES = [...TRANSCRIBED, ...lineTooLong()];
const idOf = (c: Case, i: number) => `${i + 1} ${c.test}: ${c.agent || '""'} ${c.url.slice(0, 60) || '""'}`;

/**
 * Judged disagreements.
 * - ID_Encoding, a rule `/foo/bar/ツ` or `/foo/bar/%E3%83%84` and a URL `/foo/bar/ツ`: Google leaves encoding the
 *   URL to its caller (its test says the unencoded URL does not match). RFC 9309 section 2.2.2 has octets outside
 *   US-ASCII percent-encoded "in the URI and robots.txt paths" before comparison, so the URL matches the rule and
 *   is allowed; a crawler never sends the raw form anyway (an HTTP request target is ASCII). The rule written raw
 *   against the encoded URL, the case RFC 9309's table shows, agrees.
 * - GoogleOnly_IndexHTMLisDirectory: Google reads `allow: /allowed-slash/index.html` as also allowing
 *   `/allowed-slash/`; RFC 9309 matches the pattern as written.
 * - GoogleOnly_LineTooLong: Google cuts a line at 16,664 bytes and matches the cut pattern. RFC 9309 sets no line
 *   limit (section 2.5 asks parsers to read at least 500 KiB), so the whole pattern is matched.
 */
const JUDGED: Record<string, string> = {
  '64 ID_Encoding: FooBot http://foo.bar/foo/bar/ツ': 'both sides percent-encoded, RFC 9309 section 2.2.2',
  '66 ID_Encoding: FooBot http://foo.bar/foo/bar/ツ': 'both sides percent-encoded, RFC 9309 section 2.2.2',
  '79 GoogleOnly_IndexHTMLisDirectory: foobot http://foo.com/allowed-slash/': 'Google-only index.html reading',
  '142 GoogleOnly_LineTooLong: FooBot http://foo.bar/x/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa':
    'Google-only line cut',
  '145 GoogleOnly_LineTooLong: FooBot http://foo.bar/x/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb':
    'Google-only line cut',
};

const outcomes = CASES.map((c, i) => ({ id: idOf(c, i), agrees: allowed(c) === c.allowed }));

describe("robots.txt against Google's reference parser tests (robots_test.cc)", () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  // 140 of 145: three of the five judged cases are Google's own extensions, which keep this suite under 97 %.
  it('agrees on every case but the judged ones', () => {
    expectAgreement('google/robotstxt', outcomes, JUDGED, 0.95);
  });
});
