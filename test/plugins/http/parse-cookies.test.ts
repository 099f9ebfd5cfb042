import { describe, expect, it } from 'vitest';
import { parseCookiesOf, parseSetCookie } from '../../../plugins/http/parse-cookies.ts';

const ctx = { url: 'https://example.com/', onFinalResponse: true, observedAt: '2026-03-01T00:00:00.000Z' };

describe('parseSetCookie', () => {
  it('reads every attribute, case-insensitively', () => {
    const c = parseSetCookie('__Host-sid=abc; PATH=/; secure; HttpOnly; SameSite=Strict; Max-Age=3600', ctx);
    expect(c).toEqual({
      name: '__Host-sid',
      url: 'https://example.com/',
      over_https: true,
      on_final_response: true,
      secure: true,
      http_only: true,
      same_site: 'strict',
      domain: null,
      path: '/',
      expires: null,
      max_age: 3600,
      lifetime_s: 3600,
      prefix: '__Host-',
      session_like: true,
    });
  });

  it('computes the lifetime of Expires from observed_at', () => {
    const c = parseSetCookie('pref=1; Expires=Tue, 31 Mar 2026 00:00:00 GMT', ctx);
    expect(c.expires).toBe('2026-03-31T00:00:00.000Z');
    expect(c.lifetime_s).toBe(30 * 86400);
  });

  it('lets Max-Age win over Expires, and ignores unparsable values', () => {
    expect(parseSetCookie('a=1; Expires=Tue, 31 Mar 2026 00:00:00 GMT; Max-Age=60', ctx).lifetime_s).toBe(60);
    const bad = parseSetCookie('a=1; Expires=someday; Max-Age=soon', ctx);
    expect([bad.expires, bad.max_age, bad.lifetime_s]).toEqual([null, null, null]);
  });

  it('strips the leading dot of Domain and drops a Path that is not absolute', () => {
    const c = parseSetCookie('a=1; Domain=.Example.COM; Path=app', ctx);
    expect(c.domain).toBe('example.com');
    expect(c.path).toBeNull();
  });

  it('recognises prefixes and session-like names', () => {
    expect(parseSetCookie('__secure-x=1', ctx).prefix).toBe('__Secure-');
    expect(
      ['PHPSESSID', 'connect.sid', 'auth_token', 'theme', 'consider'].map(
        (n) => parseSetCookie(`${n}=1`, ctx).session_like,
      ),
    ).toEqual([true, true, true, false, false]);
  });

  it('marks cookies set over plain HTTP', () => {
    expect(parseSetCookie('a=1', { ...ctx, url: 'http://example.com/' }).over_https).toBe(false);
  });
});

describe('parseCookiesOf', () => {
  it('orders cookies by name', () => {
    expect(parseCookiesOf(['b=1', 'a=2'], ctx.url, false, ctx.observedAt).map((c) => c.name)).toEqual(['a', 'b']);
  });
});
