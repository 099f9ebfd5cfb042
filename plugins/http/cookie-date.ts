// The cookie-date algorithm of RFC 6265 section 5.1.1 (unchanged in RFC 6265bis): what a browser makes of a
// cookie's Expires value. Date.parse is no substitute: it reads local time zones and accepts forms this
// algorithm refuses (and refuses some it accepts, such as "Wed, 09-Jun-2021 10:18:14 GMT+2").
//
//   cookie-date     = *delimiter date-token-list *delimiter
//   date-token-list = date-token *( 1*delimiter date-token )
//   date-token      = 1*non-delimiter
//   delimiter       = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E
//   day-of-month    = 1*2DIGIT [ non-digit *OCTET ]
//   month           = ( "jan" / "feb" / ... / "dec" ) *OCTET          (case-insensitive)
//   year            = 2*4DIGIT [ non-digit *OCTET ]
//   time            = hms-time [ non-digit *OCTET ]
//   hms-time        = time-field ":" time-field ":" time-field
//   time-field      = 1*2DIGIT
import { GrammarError } from '../../src/lib/http-grammar.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const TIME = /^(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\D|$)/;
const DAY = /^(\d{1,2})(?:\D|$)/;
const YEAR = /^(\d{2,4})(?:\D|$)/;

function isDelimiter(code: number): boolean {
  return (
    code === 0x09 ||
    (code >= 0x20 && code <= 0x2f) ||
    (code >= 0x3b && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}

/** The date-tokens of the value: maximal runs of non-delimiters. */
function dateTokens(value: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (const ch of value) {
    if (isDelimiter(ch.charCodeAt(0))) {
      if (current !== '') tokens.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') tokens.push(current);
  return tokens;
}

interface Found {
  time?: [number, number, number];
  day?: number;
  month?: number;
  year?: number;
}

/** Step 2: each token fills the first production it matches that is not yet found, in this order. */
function scan(tokens: readonly string[]): Found {
  const found: Found = {};
  for (const token of tokens) {
    const time = found.time === undefined ? TIME.exec(token) : null;
    if (time) {
      found.time = [Number(time[1]), Number(time[2]), Number(time[3])];
      continue;
    }
    const day = found.day === undefined ? DAY.exec(token) : null;
    if (day) {
      found.day = Number(day[1]);
      continue;
    }
    const month = found.month === undefined ? MONTHS.indexOf(token.slice(0, 3).toLowerCase()) : -1;
    if (month !== -1) {
      found.month = month;
      continue;
    }
    const year = found.year === undefined ? YEAR.exec(token) : null;
    if (year) found.year = Number(year[1]);
  }
  return found;
}

/** Parses a cookie-date to epoch milliseconds (UTC), or throws a GrammarError naming what is missing or out of range. */
export function parseCookieDate(value: string): number {
  const found = scan(dateTokens(value));
  for (const part of ['time', 'day', 'month', 'year'] as const)
    if (found[part] === undefined)
      throw new GrammarError('cookie-date', `no ${part === 'day' ? 'day-of-month' : part}`);
  let year = found.year!;
  // Steps 3 and 4: two-digit years.
  if (year >= 70 && year <= 99) year += 1900;
  else if (year >= 0 && year <= 69) year += 2000;
  const [hour, minute, second] = found.time!;
  const day = found.day!;
  if (day < 1 || day > 31) throw new GrammarError('day-of-month', `${day} is out of range`);
  if (year < 1601) throw new GrammarError('year', `${year} is before 1601`);
  if (hour > 23 || minute > 59 || second > 59)
    throw new GrammarError('time', `${found.time!.join(':')} is out of range`);
  const ms = Date.UTC(year, found.month ?? 0, day, hour, minute, second);
  // Step 7: a date that does not exist (30 February) fails rather than rolling over.
  if (new Date(ms).getUTCDate() !== day) throw new GrammarError('cookie-date', 'the date does not exist');
  return ms;
}
