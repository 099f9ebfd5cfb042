// The RFC 3986 URI grammar the mail-policy records import: examples of section 1.1.2, generated URIs, and
// texts that break it (which the WHATWG URL parser would repair).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUri, uriHost } from '../../../plugins/shared/uri.ts';

describe('parseUri', () => {
  it.each([
    'ftp://ftp.is.co.za/rfc/rfc1808.txt',
    'http://www.ietf.org/rfc/rfc2396.txt',
    'ldap://[2001:db8::7]/c=GB?objectClass?one',
    'mailto:John.Doe@example.com',
    'news:comp.infosystems.www.servers.unix',
    'tel:+1-816-555-1212',
    'telnet://192.0.2.16:80/',
    'urn:oasis:names:specification:docbook:dtd:xml:4.1.2',
  ])('reads the RFC 3986 section 1.1.2 example %s', (uri) => {
    expect(parseUri(uri)).toEqual({ scheme: uri.slice(0, uri.indexOf(':')) });
  });

  it('accepts generated web URLs, and reads their host', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        expect(parseUri(url)?.scheme).toMatch(/^https?$/);
      }),
    );
    expect(uriHost('https://Example.ORG:8443/logo.svg')).toBe('example.org');
    expect([uriHost('https://192.0.2.1/x'), uriHost('https://[2001:db8::1]/x'), uriHost('mailto:a@b')]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it.each([
    'dmarc@example.com',
    'mailto:a b@example.com',
    'https://example.org/%zz',
    'https://exa mple.org/',
    'https://example.org/a\\b',
    '1http://example.org/',
    'https://[2001:db8::1%eth0]/',
    'https://[not-an-address]/',
    'https://example.org/#a#b',
  ])('refuses %s', (text) => {
    expect(parseUri(text)).toBeNull();
  });
});
