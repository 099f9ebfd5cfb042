// Independent cases for the robots.txt parser and matcher: the examples of Google's robots.txt specification as
// scrapy/protego transcribed them for its own tests (tests/test_on_google_spec.py, commit 81f1b35d1a2b). The
// inputs and expected answers are facts about the protocol; each disagreement is judged below in writing.
import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../../plugins/wellknown/parse-robots.ts';
import { decide } from '../../../../plugins/wellknown/robots-access.ts';
import { expectAgreement } from '../../suite-agreement.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const pathOf = (url: string) => (url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url);
const allowed = (robots: string, token: string, url: string) =>
  decide(parseRobots(bytes(robots)), token, pathOf(url)).decision === 'allow';

/** [Disallow pattern, path, whether the pattern matches the path]. */
const PATH_MATCHING: [string, string, boolean][] = [
  ['/', '/harry', true],
  ['/', '/device/time-turner', true],
  ['/', '/hogwards.html', true],
  ['/*', '/harry', true],
  ['/*', '/device/time-turner', true],
  ['/*', '/hogwards.html', true],
  ['/phoenix', '/phoenix', true],
  ['/phoenix', '/phoenix.html', true],
  ['/phoenix', '/phoenix/sparky.html', true],
  ['/phoenix', '/phoenixheads', true],
  ['/phoenix', '/phoenixheads/yummy.html', true],
  ['/phoenix', '/phoenix.php?id=anything', true],
  ['/phoenix', '/Phoenix.asp', false],
  ['/phoenix', '/redphoenix', false],
  ['/phoenix', '/?id=phoenix', false],
  ['/phoenix*', '/phoenix', true],
  ['/phoenix*', '/phoenix.html', true],
  ['/phoenix*', '/phoenix/sparky.html', true],
  ['/phoenix*', '/phoenixheads', true],
  ['/phoenix*', '/phoenixheads/yummy.html', true],
  ['/phoenix*', '/phoenix.php?id=anything', true],
  ['/phoenix*', '/Phoenix.asp', false],
  ['/phoenix*', '/redphoenix', false],
  ['/phoenix*', '/?id=phoenix', false],
  ['/phoenix/', '/phoenix/', true],
  ['/phoenix/', '/phoenix/?id=anything', true],
  ['/phoenix/', '/phoenix/sparky.htm', true],
  ['/phoenix/', '/phoenix', false],
  ['/phoenix/', '/phoenix.html', false],
  ['/phoenix/', '/Phoenix/Sparky.asp', false],
  ['/*.php', '/filename.php', true],
  ['/*.php', '/folder/filename.php', true],
  ['/*.php', '/folder/filename.php?parameters', true],
  ['/*.php', '/folder/any.php.file.html', true],
  ['/*.php', '/filename.php/', true],
  ['/*.php', '/windows.PHP', false],
  ['/*.php', '/', false],
  ['/*.php', '/index?f=filename.php/', true],
  ['/*.php', '/index?php', false],
  ['/*.php$', '/filename.php', true],
  ['/*.php$', '/folder/filename.php', true],
  ['/*.php$', '/filename.php?parameters', false],
  ['/*.php$', '/filename.php/', false],
  ['/*.php$', '/filename.php5', false],
  ['/*.php$', '/windows.PHP', false],
  ['/*.php$', '/filename?php', false],
  ['/fish*.php', '/fish.php', true],
  ['/fish*.php', '/fishheads/catfish.php?parameters', true],
  ['/fish*.php', '/Fish.PHP', false],
];

/** [rules of the `*` group, URL, allowed]. */
const RECORD_PRECEDENCE: [string, string, boolean][] = [
  ['allow: /p\ndisallow: /', 'http://example.com/page', true],
  ['allow: /folder\ndisallow: /folder', 'http://example.com/folder/page', true],
  ['allow: /$\ndisallow: /', 'http://example.com/', true],
  ['allow: /$\ndisallow: /', 'http://example.com/page.htm', false],
];

/** Which of /group1..3 a crawler may fetch under one file of three groups. */
const USER_AGENT_ROBOTS = `user-agent: hedwig-news
disallow: /
allow: /group1
user-agent: *
disallow: /
allow: /group2
user-agent: hedwig
disallow: /
allow: /group3
`;
const USER_AGENT_PRECEDENCE: [string, string][] = [
  ['hedwig-news', '/group1'],
  ['hedwig-news2', '/group1'],
  ['hedwi', '/group2'],
  ['a', '/group2'],
  ['hedwig-new', '/group3'],
  ['hedwig-images', '/group3'],
];

/**
 * Judged disagreements. protego matches a crawler to a group whose token is a prefix of the crawler's name
 * (`hedwig-news2` obeys `hedwig-news`, `hedwig-images` obeys `hedwig`). RFC 9309 section 2.2.1 matches the
 * product token itself, case-insensitively, as Google's reference parser does: a crawler whose token is
 * `hedwig-news2` has no group of its own in this file and obeys `*`. We follow the RFC, and so does Google's
 * reference parser, whose specification these examples come from: its RobotsMatcher::HandleUserAgent
 * (google/robotstxt robots.cc) compares a group's token with each name the crawler gives, whole and ignoring
 * case, so it too sends all three to `*`. The prefix match is protego's own.
 */
const JUDGED: Record<string, string> = {
  'hedwig-news2': '/group2',
  'hedwig-new': '/group2',
  'hedwig-images': '/group2',
};

const firstAllowed = (token: string) =>
  ['/group1', '/group2', '/group3'].find((p) => allowed(USER_AGENT_ROBOTS, token, p)) ?? null;
const pathAgrees = ([pattern, path, match]: [string, string, boolean]) =>
  allowed(`User-Agent: *\ndisallow: ${pattern}\n`, '*', path) === !match;
const recordAgrees = ([rules, url, expected]: [string, string, boolean]) =>
  allowed(`User-Agent: *\n${rules}\n`, '*', url) === expected;

describe('robots.txt against the Google specification examples (via scrapy/protego)', () => {
  it.each(PATH_MATCHING)('Disallow: %s matches %s: %s', (...c) => expect(pathAgrees(c)).toBe(true));

  it.each(RECORD_PRECEDENCE)('%j decides %s: allowed %s', (...c) => expect(recordAgrees(c)).toBe(true));

  it.each(USER_AGENT_PRECEDENCE)('%s obeys its group (or the judged RFC 9309 answer)', (token, expected) => {
    expect(firstAllowed(token)).toBe(JUDGED[token] ?? expected);
  });

  // 56 of 59: the three judged prefix matches keep this small suite under the 97 % floor (issue 14).
  it('agrees on every case but the judged ones', () => {
    const outcomes = [
      ...PATH_MATCHING.map((c) => ({ id: `path ${c[0]} ${c[1]}`, agrees: pathAgrees(c) })),
      ...RECORD_PRECEDENCE.map((c) => ({ id: `record ${c[0]} ${c[1]}`, agrees: recordAgrees(c) })),
      ...USER_AGENT_PRECEDENCE.map(([t, e]) => ({ id: t, agrees: firstAllowed(t) === e })),
    ];
    expectAgreement('protego (Google specification examples)', outcomes, JUDGED, 0.94);
  });
});
