// The Set-Cookie parser against tough-cookie's parse tests (github.com/salesforce/tough-cookie, commit
// c1cb022c3331, lib/__tests__/parse.spec.ts): each Set-Cookie string and what Cookie.parse keeps, the name and the
// attributes. The probe records no cookie values and no unknown attributes, so those are not compared; three
// inputs that are not strings (undefined, String objects) test tough-cookie's JavaScript API and are left out.
// tough-cookie writes "use the default path" as a null path and "no expiry" as Infinity; ours are the default
// path of the URL (https://example.com/dir/page, so /dir) and null.
import { describe, expect, it } from 'vitest';
import { parseSetCookie } from '../../../../plugins/http/parse-cookies.ts';
import { expectAgreement } from '../../suite-agreement.ts';

interface Kept {
  key: string;
  expires?: string | null;
  path?: string | null;
  domain?: string | null;
  secure?: boolean;
  httpOnly?: boolean;
  maxAge?: number;
  sameSite?: 'lax' | 'strict' | 'none' | null;
}

const URL_SET = 'https://example.com/dir/page';
const DEFAULT_PATH = '/dir';
const iso = (date: string) => new Date(Date.parse(date)).toISOString();
const repeat = (c: string) => c.repeat(65535);

/** [input, what tough-cookie keeps, or null when it returns no cookie]. */
const CASES: [string, Kept | null][] = [
  ['a=bcd', { key: 'a' }],
  ['a=bcd; Expires=Tue, 18 Oct 2011 07:05:03 GMT', { key: 'a', expires: iso('Tue, 18 Oct 2011 07:05:03 GMT') }],
  [
    'abc="xyzzy!"; Expires=Tue, 18 Oct 2011 07:05:03 GMT; Path=/aBc',
    { key: 'abc', expires: iso('Tue, 18 Oct 2011 07:05:03 GMT'), path: '/aBc', httpOnly: false, secure: false },
  ],
  [
    'abc="xyzzy!"; Expires=Tue, 18 Oct 2011 07:05:03 GMT; Path=/aBc; Domain=example.com; Secure; HTTPOnly; Max-Age=1234; Foo=Bar; Baz',
    {
      key: 'abc',
      expires: iso('Tue, 18 Oct 2011 07:05:03 GMT'),
      path: '/aBc',
      domain: 'example.com',
      secure: true,
      httpOnly: true,
      maxAge: 1234,
    },
  ],
  ['a=b; Expires=xyzzy', { key: 'a', expires: null }],
  ['a=b; Max-Age=0', { key: 'a', maxAge: 0 }],
  ['a=b; Max-Age=-1', { key: 'a', maxAge: -1 }],
  ['a=b; domain=', { key: 'a', domain: null }],
  ['a=b; domain=.', { key: 'a', domain: null }],
  ['a=b; domain=EXAMPLE.COM', { key: 'a', domain: 'example.com' }],
  ['a=b; Domain=example.com.', { key: 'a', domain: 'example.com.' }],
  ['a=b; path=', { key: 'a', path: null }],
  ['a=b; path=xyzzy', { key: 'a', path: null }],
  ['a=b; path=/;', { key: 'a', path: '/' }],
  ['c=d;;;;', { key: 'c', path: null }],
  ['a=b; Secure=xyzzy', { key: 'a', secure: true }],
  ['a=b; HttpOnly=xyzzy', { key: 'a', httpOnly: true }],
  ['\x08', null],
  ['a=b; domain=kyoto.jp', { key: 'a', domain: 'kyoto.jp' }],
  ['a=b; domain=foonet.net', { key: 'a', domain: 'foonet.net' }],
  ['a=b; domain=www.foonet.net', { key: 'a', domain: 'www.foonet.net' }],
  ['a=b; domain=.foonet.net', { key: 'a', domain: 'foonet.net' }],
  [
    'GAPS=1:A1aaaaAaAAa1aaAaAaaAAAaaa1a11a:aaaAaAaAa-aaaA1-;Path=/;Expires=Thu, 17-Apr-2014 02:12:29 GMT;Secure;HttpOnly',
    { key: 'GAPS', path: '/', expires: iso('Thu, 17 Apr 2014 02:12:29 GMT'), secure: true, httpOnly: true },
  ],
  [
    'queryPref=b=c&d=e; Path=/f=g; Expires=Thu, 17 Apr 2014 02:12:29 GMT; HttpOnly',
    { key: 'queryPref', path: '/f=g', expires: iso('Thu, 17 Apr 2014 02:12:29 GMT'), httpOnly: true },
  ],
  ['a=one two three', { key: 'a', path: null, domain: null }],
  ['a="one two three"', { key: 'a', path: null, domain: null }],
  ['farbe=weiß', { key: 'farbe', path: null, domain: null }],
  ['=abc', { key: '', path: null, domain: null }],
  ['abc', { key: '', path: null, domain: null }],
  ['=foo=bar', { key: 'foo', path: null, domain: null }],
  [`foo=bar${repeat(';')} domain=example.com`, { key: 'foo', path: null, domain: 'example.com' }],
  ['x x', null],
  [`x${repeat(' ')}x`, null],
  ['abc=xyzzy; SameSite=Lax', { key: 'abc', sameSite: 'lax' }],
  ['abc=xyzzy; SameSite=StRiCt', { key: 'abc', sameSite: 'strict' }],
  ['abc=xyzzy; SameSite=NoNe', { key: 'abc', sameSite: 'none' }],
  ['abc=xyzzy; SameSite=example.com', { key: 'abc', sameSite: null }],
  ['abc=xyzzy;', { key: 'abc', sameSite: null }],
  ['', null],
];

function ours(input: string): Kept | null {
  const c = parseSetCookie(input, { url: URL_SET, onFinalResponse: true, observedAt: '2026-01-01T00:00:00Z' });
  if (c.rejected !== null) return null;
  return {
    key: c.name,
    expires: c.expires,
    path: c.path === DEFAULT_PATH ? null : c.path,
    domain: c.domain,
    secure: c.secure,
    httpOnly: c.http_only,
    maxAge: c.max_age ?? undefined,
    // An unknown SameSite value is "default" (RFC 6265bis section 5.6.7): no SameSite attribute in force.
    sameSite: c.same_site === 'default' ? null : c.same_site,
  };
}

function agrees(input: string, expected: Kept | null): boolean {
  const got = ours(input);
  if (expected === null || got === null) return expected === got;
  return Object.entries(expected).every(([k, v]) => got[k as keyof Kept] === v);
}

/**
 * Judged disagreements: nameless cookies. `x x` has no "=" (tough-cookie refuses it outside its loose mode);
 * `=foo=bar` has an empty name (its loose mode drops the leading "=" and reads `foo`). RFC 6265bis section 5.6
 * step 3 keeps both as cookies named "", with the values `x x` and `foo=bar`; so do browsers, and so do we (the
 * suite is the one that differs from the current specification here).
 */
const JUDGED: Record<string, string> = {
  '31: "x x"': 'a nameless cookie, RFC 6265bis section 5.6',
  '29: "=foo=bar"': 'a nameless cookie, RFC 6265bis section 5.6',
};

const outcomes = CASES.map(([input, expected], i) => ({
  id: `${i}: ${JSON.stringify(input.length > 60 ? `${input.slice(0, 40)}...` : input)}`,
  agrees: agrees(input, expected),
}));

describe('Set-Cookie against tough-cookie (parse.spec.ts)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  // 37 of 39: the two judged nameless cookies keep this small suite under the 97 % floor (issue 14).
  it('agrees on every case but the judged ones', () => {
    expectAgreement('tough-cookie parse', outcomes, JUDGED, 0.94);
  });
});
