// The Set-Cookie parser against the http-state tests as web-platform-tests keeps them, updated to RFC 6265bis
// (wpt cookies/http-state/resources/test-files: the successor of github.com/abarth/http-state's parser.json,
// which follows RFC 6265 and which this suite replaces). WPT's repository is too large to fetch here, so the
// files come from the copy ninenines/gun keeps of them (commit 921c47146b2d, test/wpt/cookies/, "Update the WPT
// cookie tests", April 2020), transcribed into data/wpt-http-state.json: the Set-Cookie lines (the OWS around
// each value dropped, as an HTTP parser does), the Location to read from, and the Cookie header expected. The
// files WPT itself named disabled- are left out. Each case sets its cookies at
// http://home.example.org:8888/cookie-parser?<test>; our parser reads each line, the minimal store of
// cookie-store.ts (RFC 6265bis sections 5.7 and 5.8.3) decides what is sent to the Location (or /cookie-parser-result?<test>), and the serialized cookie-string is compared.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectAgreement } from '../../suite-agreement.ts';
import { CookieStore } from './cookie-store.ts';

interface Case {
  test: string;
  received: string[];
  location?: string;
  sent: string;
}

const CASES = JSON.parse(readFileSync(new URL('./data/wpt-http-state.json', import.meta.url), 'utf8')) as Case[];

/** The copy dates from April 2020; its Expires dates are judged from then. */
const NOW = '2020-04-20T00:00:00.000Z';

function sent(c: Case): string {
  const store = new CookieStore(NOW);
  const setAt = new URL(`http://home.example.org:8888/cookie-parser?${c.test}`);
  for (const header of c.received) store.receive(header, setAt);
  return store.cookieString(new URL(c.location ?? `/cookie-parser-result?${c.test}`, setAt));
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
