import { describe, expect, it } from 'vitest';
import {
  altSvcProtocols,
  firstToken,
  frameOptions,
  httpDate,
  parseCacheControl,
  permissionsPolicy,
  referrerPolicy,
  tokenList,
} from '../../../plugins/http/parse-headers.ts';
import { parseContentType } from '../../../src/net/content-type.ts';

describe('header parsers', () => {
  it('splits Content-Type into media type and charset', () => {
    expect(parseContentType('Text/HTML; Charset="UTF-8"')).toEqual({ mediaType: 'text/html', charset: 'utf-8' });
    expect(parseContentType('application/json')).toEqual({ mediaType: 'application/json', charset: null });
    expect(parseContentType(null)).toEqual({ mediaType: null, charset: null });
  });

  it('reads Cache-Control directives and max-age', () => {
    expect(parseCacheControl('Public, max-age=600, s-maxage="60"')).toEqual({
      raw: 'Public, max-age=600, s-maxage="60"',
      directives: ['max-age', 'public', 's-maxage'],
      max_age: 600,
    });
  });

  it('picks the last recognised Referrer-Policy token', () => {
    expect(referrerPolicy('no-referrer, strict-origin-when-cross-origin')).toBe('strict-origin-when-cross-origin');
    expect(referrerPolicy('same-origin, made-up')).toBe('same-origin');
    expect(referrerPolicy('made-up')).toBeNull();
  });

  it('parses Permissions-Policy as a Structured Fields dictionary', () => {
    expect(permissionsPolicy('geolocation=(), camera=(self "https://a.example")')).toEqual({
      raw: 'geolocation=(), camera=(self "https://a.example")',
      features: ['camera', 'geolocation'],
      parse_error: null,
    });
    const old = permissionsPolicy("geolocation 'none'");
    expect(old.features).toEqual([]);
    expect(old.parse_error).not.toBeNull();
  });

  it('reads single-token headers without parameters', () => {
    expect(firstToken('Same-Origin; report-to="coop"')).toBe('same-origin');
    expect(firstToken('nosniff, nosniff')).toBe('nosniff');
  });

  it('collapses identical X-Frame-Options values and keeps differing ones', () => {
    expect(frameOptions('DENY, deny')).toBe('deny');
    expect(frameOptions('DENY, SAMEORIGIN')).toBe('deny, sameorigin');
  });

  it('lists Alt-Svc protocols and Vary tokens sorted', () => {
    expect(altSvcProtocols('h3=":443"; ma=86400, h3-29=":443", h2=":443"')).toEqual(['h2', 'h3', 'h3-29']);
    expect(altSvcProtocols('clear')).toEqual([]);
    expect(tokenList('Accept-Encoding, Accept, accept')).toEqual(['accept', 'accept-encoding']);
  });

  it('turns an HTTP-date into ISO 8601', () => {
    expect(httpDate('Sun, 01 Mar 2026 12:00:00 GMT')).toBe('2026-03-01T12:00:00.000Z');
    expect(httpDate('yesterday')).toBeNull();
  });
});
