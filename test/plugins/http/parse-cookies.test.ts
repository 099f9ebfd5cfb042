import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCookieDate } from '../../../plugins/http/cookie-date.ts';
import { defaultPath, parseCookiesOf, parseSetCookie } from '../../../plugins/http/parse-cookies.ts';

const ctx = { url: 'https://example.com/', onFinalResponse: true, observedAt: '2026-03-01T00:00:00.000Z' };
const iso = (s: string): string => new Date(parseCookieDate(s)).toISOString();

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number): string => String(n).padStart(2, '0');
/** Runs of delimiters (RFC 6265 section 5.1.1: %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E), never empty. */
const delimiters = fc.string({
  unit: fc.constantFrom('\t', ' ', ',', '-', '/', ';', '=', '[', '`', '{', '~'),
  minLength: 1,
  maxLength: 3,
});
const when = fc.date({
  min: new Date('1601-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
});

describe('cookie-date: the forms RFC 6265 and RFC 9110 write', () => {
  it.each([
    // RFC 6265 section 3.1 and RFC 9110 section 5.6.7
    ['Wed, 09 Jun 2021 10:18:14 GMT', '2021-06-09T10:18:14.000Z'],
    ['Sun, 06 Nov 1994 08:49:37 GMT', '1994-11-06T08:49:37.000Z'],
    ['Sunday, 06-Nov-94 08:49:37 GMT', '1994-11-06T08:49:37.000Z'],
    ['Sun Nov  6 08:49:37 1994', '1994-11-06T08:49:37.000Z'],
  ])('%s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });
});

describe('cookie-date: dates generated from the grammar', () => {
  it('parse to the date written, whatever the token order and delimiters', () => {
    fc.assert(
      fc.property(
        when,
        fc.array(delimiters, { minLength: 6, maxLength: 6 }),
        fc.nat(),
        fc.boolean(),
        (d, seps, order, suffix) => {
          const tokens = [
            `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
            String(d.getUTCDate()),
            // month = 3 letters then *OCTET: a full month name is a month too
            MONTHS[d.getUTCMonth()]! + (suffix ? 'ember' : ''),
            String(d.getUTCFullYear()).padStart(4, '0'),
          ];
          const rotated = [...tokens.slice(order % 4), ...tokens.slice(0, order % 4)];
          const text = `${DAYS[d.getUTCDay()]}${seps[0]}${rotated.map((t, i) => t + seps[i + 1]).join('')}GMT`;
          expect(parseCookieDate(text)).toBe(Math.floor(d.getTime() / 1000) * 1000);
        },
      ),
    );
  });

  it('read two-digit years as 1970-2069', () => {
    expect(iso('Thu, 01-Jan-70 00:00:00 GMT')).toBe('1970-01-01T00:00:00.000Z');
    expect(iso('Tue, 01-Jan-69 00:00:00 GMT')).toBe('2069-01-01T00:00:00.000Z');
  });

  it('are not read in the local time zone (unlike Date.parse)', () => {
    expect(iso('Wed, 09 Jun 2021 10:18:14')).toBe('2021-06-09T10:18:14.000Z');
    expect(iso('Wed, 09 Jun 2021 10:18:14 GMT+2')).toBe('2021-06-09T10:18:14.000Z');
  });
});

describe('cookie-date: mutations that break one production are refused, naming it', () => {
  it.each([
    ['time out of range', '09 Jun 2021 24:18:14', 'time'],
    ['time-field with three digits', '09 Jun 2021 100:18:14', 'cookie-date'],
    ['day-of-month 0', '00 Jun 2021 10:18:14', 'day-of-month'],
    ['day-of-month 32', '32 Jun 2021 10:18:14', 'day-of-month'],
    ['year before 1601', '09 Jun 1600 10:18:14', 'year'],
    ['year with five digits', '09 Jun 20210 10:18:14', 'cookie-date'],
    ['month misspelt', '09 Jnu 2021 10:18:14', 'cookie-date'],
    ['no time', '09 Jun 2021', 'cookie-date'],
    ['a date that does not exist', '30 Feb 2021 10:18:14', 'cookie-date'],
  ])('%s', (_name, text, production) => {
    expect(() => parseCookieDate(text)).toThrow(new RegExp(`^${production}:`));
  });
});

/** RFC 6265 section 4.1.1 cookie-octet: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E */
const cookieOctets = fc.string({
  unit: fc.constantFrom(...'!#$%&()*+-./0123456789:<>?@ABCXYZ[]^_`abcxyz{|}~'.split('')),
  maxLength: 12,
});
const cookieName = fc.string({
  unit: fc.constantFrom(..."!#$%&'*+-.^_`|~0123456789ABCxyz".split('')),
  minLength: 1,
  maxLength: 10,
});

describe('Set-Cookie: the examples of RFC 6265 section 3.1', () => {
  it('reads each example', () => {
    expect(parseSetCookie('SID=31d4d96e407aad42', ctx)).toMatchObject({ name: 'SID', path: null, domain: null });
    expect(parseSetCookie('SID=31d4d96e407aad42; Path=/; Domain=example.com', ctx)).toMatchObject({
      path: '/',
      domain: 'example.com',
    });
    expect(parseSetCookie('SID=31d4d96e407aad42; Path=/; Secure; HttpOnly', ctx)).toMatchObject({
      secure: true,
      http_only: true,
    });
    expect(parseSetCookie('lang=en-US; Path=/; Domain=example.com', ctx)).toMatchObject({
      name: 'lang',
      domain: 'example.com',
    });
    expect(parseSetCookie('lang=en-US; Expires=Wed, 09 Jun 2021 10:18:14 GMT', ctx).expires).toBe(
      '2021-06-09T10:18:14.000Z',
    );
    expect(parseSetCookie('lang=; Expires=Sun, 06 Nov 1994 08:49:37 GMT', ctx)).toMatchObject({
      name: 'lang',
      rejected: null,
    });
  });
});

describe('Set-Cookie: strings generated from the grammar (RFC 6265 section 4.1.1, SameSite from RFC 6265bis)', () => {
  it('parse with every attribute as written', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: cookieName,
          value: cookieOctets,
          maxAge: fc.option(fc.integer({ min: 1, max: 10 ** 8 })),
          domain: fc.option(fc.constantFrom('example.com', 'Sub.Example.COM', '.example.com')),
          path: fc.option(fc.constantFrom('/', '/app', '/a/b')),
          secure: fc.boolean(),
          httpOnly: fc.boolean(),
          sameSite: fc.option(fc.constantFrom('Strict', 'Lax', 'None', 'strict', 'LAX')),
          expires: fc.option(when),
        }),
        (r) => {
          const parts = [`${r.name}=${r.value}`];
          if (r.expires !== null) parts.push(`Expires=${r.expires.toUTCString()}`);
          if (r.maxAge !== null) parts.push(`Max-Age=${r.maxAge}`);
          if (r.domain !== null) parts.push(`Domain=${r.domain}`);
          if (r.path !== null) parts.push(`Path=${r.path}`);
          if (r.secure) parts.push('Secure');
          if (r.httpOnly) parts.push('HttpOnly');
          if (r.sameSite !== null) parts.push(`SameSite=${r.sameSite}`);
          const c = parseSetCookie(parts.join('; '), ctx);
          expect(c).toMatchObject({
            name: r.name,
            rejected: null,
            max_age: r.maxAge,
            domain: r.domain?.replace(/^\./, '').toLowerCase() ?? null,
            path: r.path,
            secure: r.secure,
            http_only: r.httpOnly,
            same_site: r.sameSite?.toLowerCase() ?? null,
            expires: r.expires === null ? null : new Date(Math.floor(r.expires.getTime() / 1000) * 1000).toISOString(),
          });
        },
      ),
    );
  });
});

describe('Set-Cookie: mutations', () => {
  it('a control character or an empty pair makes the whole string ignored, naming the production', () => {
    const controlled = parseSetCookie('a=b\x01c; Secure', ctx);
    expect(controlled.rejected).toMatch(/^set-cookie-string:/);
    expect(controlled.secure).toBe(false);
    expect(parseSetCookie('=; Secure', ctx).rejected).toMatch(/^cookie-pair:/);
    expect(parseSetCookie(`a=${'x'.repeat(4096)}`, ctx).rejected).toMatch(/^cookie-pair:/);
    expect(parseSetCookie('a=b\tc', ctx).rejected).toBeNull(); // HTAB is allowed
  });

  it('an attribute that breaks its own grammar is ignored, and an earlier valid one stays', () => {
    const c = parseSetCookie(
      'a=1; Max-Age=60; Max-Age=1.5; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Expires=someday; Domain=example.com; Domain=',
      ctx,
    );
    expect(c).toMatchObject({ max_age: 60, expires: '2021-06-09T10:18:14.000Z', domain: 'example.com' });
    expect(parseSetCookie(`a=1; Path=/${'x'.repeat(1024)}`, ctx).path).toBeNull(); // over 1024 octets
  });

  it('an unknown SameSite value means the default enforcement', () => {
    expect(parseSetCookie('a=1; SameSite=Strictest', ctx).same_site).toBe('default');
  });

  it('a Path that does not start with "/" is the default-path of the request', () => {
    expect(parseSetCookie('a=1; Path=app', { ...ctx, url: 'https://example.com/shop/cart' }).path).toBe('/shop');
    expect(defaultPath('https://example.com/')).toBe('/');
    expect(defaultPath('https://example.com/a')).toBe('/');
  });

  it('Domain=. leaves a host-only cookie', () => {
    expect(parseSetCookie('a=1; Domain=.', ctx).domain).toBeNull();
  });

  it('keeps a nameless cookie with an empty name (RFC 6265bis section 5.6 step 3)', () => {
    expect(parseSetCookie('abc', ctx)).toMatchObject({ name: '', rejected: null });
    expect(parseSetCookie('=abc; Secure', ctx)).toMatchObject({ name: '', rejected: null, secure: true });
    expect(parseSetCookie(' =a=b', ctx)).toMatchObject({ name: '', rejected: null });
  });

  it('a nameless cookie is ignored only for what ignores a named one: a control character, or an empty pair', () => {
    expect(parseSetCookie('ab\x01c', ctx).rejected).toMatch(/^set-cookie-string:/);
    expect(parseSetCookie(' \t; Secure', ctx).rejected).toMatch(/^cookie-pair:/);
    expect(parseSetCookie('=', ctx).rejected).toMatch(/^cookie-pair:/);
    expect(parseSetCookie('x'.repeat(4097), ctx).rejected).toMatch(/^cookie-pair:/);
  });

  it('a generated pair without "=" (or with an empty name) is a nameless cookie whose attributes count', () => {
    const value = cookieOctets.filter((v) => v !== '' && !v.includes('='));
    fc.assert(
      fc.property(value, fc.boolean(), fc.boolean(), fc.boolean(), (v, equals, secure, httpOnly) => {
        const parts = [equals ? `=${v}` : v];
        if (secure) parts.push('Secure');
        if (httpOnly) parts.push('HttpOnly');
        const c = parseSetCookie(parts.join('; '), ctx);
        expect(c).toMatchObject({ name: '', rejected: null, secure, http_only: httpOnly, prefix: null });
      }),
    );
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const c = parseSetCookie(s, ctx);
        expect(c.rejected === null || typeof c.rejected === 'string').toBe(true);
      }),
    );
  });
});

describe('Set-Cookie: facts that depend on the scan', () => {
  it('computes the lifetime from observed_at, Max-Age winning over Expires, uncapped', () => {
    expect(parseSetCookie('pref=1; Expires=Tue, 31 Mar 2026 00:00:00 GMT', ctx).lifetime_s).toBe(30 * 86400);
    expect(parseSetCookie('a=1; Expires=Tue, 31 Mar 2026 00:00:00 GMT; Max-Age=60', ctx).lifetime_s).toBe(60);
    expect(parseSetCookie('a=1; Max-Age=315360000', ctx).lifetime_s).toBe(315360000);
  });

  it('recognises prefixes case-insensitively and marks cookies set over plain HTTP', () => {
    expect(parseSetCookie('__secure-x=1', ctx).prefix).toBe('__Secure-');
    expect(parseSetCookie('__Host-x=1', ctx).prefix).toBe('__Host-');
    expect(parseSetCookie('a=1', { ...ctx, url: 'http://example.com/' }).over_https).toBe(false);
  });

  it('orders cookies by name', () => {
    expect(parseCookiesOf(['b=1', 'a=2'], ctx.url, false, ctx.observedAt).map((c) => c.name)).toEqual(['a', 'b']);
  });
});
