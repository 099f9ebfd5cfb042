// The cookie-date algorithm (RFC 6265 section 5.1.1) against the http-state test suite's date cases
// (github.com/abarth/http-state, commit 155e45c6168e: tests/data/dates/examples.json and bsd-examples.json, the
// latter first written for Chromium). Each case is an Expires value and the date a user agent must read from it,
// or null when the algorithm fails.
import { describe, expect, it } from 'vitest';
import { parseCookieDate } from '../../../../plugins/http/cookie-date.ts';
import { expectAgreement } from '../../suite-agreement.ts';

const EXAMPLES: [string, string | null][] = [
  ['Mon, 10-Dec-2007 17:02:24 GMT', 'Mon, 10 Dec 2007 17:02:24 GMT'],
  ['Wed, 09 Dec 2009 16:27:23 GMT', 'Wed, 09 Dec 2009 16:27:23 GMT'],
  ['Thursday, 01-Jan-1970 00:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT'],
  ['Mon Dec 10 16:32:30 2007 GMT', 'Mon, 10 Dec 2007 16:32:30 GMT'],
  ['Wednesday, 01-Jan-10 00:00:00 GMT', 'Fri, 01 Jan 2010 00:00:00 GMT'],
  ['Mon, 10-Dec-07 20:35:03 GMT', 'Mon, 10 Dec 2007 20:35:03 GMT'],
  ['Wed, 1 Jan 2020 00:00:00 GMT', 'Wed, 01 Jan 2020 00:00:00 GMT'],
  ['Saturday, 8-Dec-2012 21:24:09 GMT', 'Sat, 08 Dec 2012 21:24:09 GMT'],
  ['Thu, 31 Dec 23:55:55 2037 GMT', 'Thu, 31 Dec 2037 23:55:55 GMT'],
  ['Sun,  9 Dec 2012 13:42:05 GMT', 'Sun, 09 Dec 2012 13:42:05 GMT'],
  ['Wed Dec 12 2007 08:44:07 GMT-0500 (EST)', 'Wed, 12 Dec 2007 08:44:07 GMT'],
  ['Mon, 01-Jan-2011 00: 00:00 GMT', null],
  ['Sun, 1-Jan-1995 00:00:00 GMT', 'Sun, 01 Jan 1995 00:00:00 GMT'],
  ['Wednesday, 01-Jan-10 0:0:00 GMT', 'Fri, 01 Jan 2010 00:00:00 GMT'],
  ['Thu, 10 Dec 2009 13:57:2 GMT', 'Thu, 10 Dec 2009 13:57:02 GMT'],
];

const BSD_EXAMPLES: [string, string | null][] = [
  ['Sat, 15-Apr-17 21:01:22 GMT', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Thu, 19-Apr-2007 16:00:00 GMT', 'Thu, 19 Apr 2007 16:00:00 GMT'],
  ['Wed, 25 Apr 2007 21:02:13 GMT', 'Wed, 25 Apr 2007 21:02:13 GMT'],
  ['Thu, 19/Apr\\2007 16:00:00 GMT', 'Thu, 19 Apr 2007 16:00:00 GMT'],
  ['Fri, 1 Jan 2010 01:01:50 GMT', 'Fri, 01 Jan 2010 01:01:50 GMT'],
  ['Wednesday, 1-Jan-2003 00:00:00 GMT', 'Wed, 01 Jan 2003 00:00:00 GMT'],
  [', 1-Jan-2003 00:00:00 GMT', 'Wed, 01 Jan 2003 00:00:00 GMT'],
  [' 1-Jan-2003 00:00:00 GMT', 'Wed, 01 Jan 2003 00:00:00 GMT'],
  ['1-Jan-2003 00:00:00 GMT', 'Wed, 01 Jan 2003 00:00:00 GMT'],
  ['Wed,18-Apr-07 22:50:12 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['WillyWonka  , 18-Apr-07 22:50:12 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['WillyWonka  , 18-Apr-07 22:50:12', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['WillyWonka  ,  18-apr-07   22:50:12', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Mon, 18-Apr-1977 22:50:13 GMT', 'Mon, 18 Apr 1977 22:50:13 GMT'],
  ['Mon, 18-Apr-77 22:50:13 GMT', 'Mon, 18 Apr 1977 22:50:13 GMT'],
  ['"Sat, 15-Apr-17\\"21:01:22\\"GMT"', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Partyday, 18- April-07 22:50:12', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Partyday, 18 - Apri-07 22:50:12', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Wednes, 1-Januar-2003 00:00:00 GMT', 'Wed, 01 Jan 2003 00:00:00 GMT'],
  ['Sat, 15-Apr-17 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 GMT-2', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 GMT BLAH', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 GMT-0400', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 GMT-0400 (EDT)', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 DST', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 -0400', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 (hello there)', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 21:01:22 11:22:33', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 ::00 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 boink:z 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Sat, 15-Apr-17 91:22:33 21:01:22', null],
  ['Thu Apr 18 22:50:12 2007 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['22:50:12 Thu Apr 18 2007 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Thu 22:50:12 Apr 18 2007 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Thu Apr 22:50:12 18 2007 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Thu Apr 18 22:50:12 2007 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Thu Apr 18 2007 22:50:12 GMT', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Thu Apr 18 2007 GMT 22:50:12', 'Wed, 18 Apr 2007 22:50:12 GMT'],
  ['Sat, 15-Apr-17 21:01:22 GMT', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['15-Sat, Apr-17 21:01:22 GMT', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['15-Sat, Apr 21:01:22 GMT 17', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['15-Sat, Apr 21:01:22 GMT 2017', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['15 Apr 21:01:22 2017', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['15 17 Apr 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Apr 15 17 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['Apr 15 21:01:22 17', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['2017 April 15 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['15 April 2017 21:01:22', 'Sat, 15 Apr 2017 21:01:22 GMT'],
  ['98 April 17 21:01:22', null],
  ['Thu, 012-Aug-2008 20:49:07 GMT', null],
  ['Thu, 12-Aug-31841 20:49:07 GMT', null],
  ['Thu, 12-Aug-9999999999 20:49:07 GMT', null],
  ['Thu, 999999999999-Aug-2007 20:49:07 GMT', null],
  ['Thu, 12-Aug-2007 20:61:99999999999 GMT', null],
  ['IAintNoDateFool', null],
];

function read(value: string): string | null {
  try {
    return new Date(parseCookieDate(value)).toUTCString();
  } catch {
    return null;
  }
}

const outcomes = [
  ...EXAMPLES.map(([value, expected], i) => ({ id: `examples ${i + 1}: ${value}`, agrees: read(value) === expected })),
  ...BSD_EXAMPLES.map(([value, expected], i) => ({
    id: `bsd-examples ${i + 1}: ${value}`,
    agrees: read(value) === expected,
  })),
];

describe('cookie-date against the http-state date cases', () => {
  it.each(outcomes)('$id', ({ agrees }) => expect(agrees).toBe(true));

  it('agrees on every case', () => {
    expectAgreement('http-state cookie dates', outcomes, {});
  });
});
