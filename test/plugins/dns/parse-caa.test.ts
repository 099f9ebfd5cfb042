// CAA properties against RFC 8659 three ways: the RFC's own examples, values generated from the issue-value
// ABNF (section 4.2), and properties with one production broken.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCaaRecord } from '../../../plugins/dns/parse-caa.ts';

const caa = (tag: string, value: string, flags = 0) => parseCaaRecord({ flags, tag, value });

describe('RFC 8659 examples', () => {
  // Sections 4.2, 4.3, 4.4 and 4.5.
  it.each([
    ['issue', 'ca.example.net'],
    ['issue', 'ca.example.net; account=230123'],
    ['issue', 'ca.example.net; policy=ev'],
    ['issue', ';'],
    ['issuewild', 'ca.example.org'],
    ['iodef', 'mailto:security@example.com'],
    ['iodef', 'https://iodef.example.com/'],
    ['issue', 'ca.example.net; account=230123; policy=ev'],
  ])('%s "%s" parses', (tag, value) => {
    expect(caa(tag, value).parse_error).toBeNull();
  });

  it('reads the issuer and parameters, and ";" alone as "no CA may issue"', () => {
    expect(caa('issue', 'LetsEncrypt.org; accounturi=https://acme.example/acct/1; validationmethods=dns-01')).toEqual({
      flags: 0,
      critical: false,
      tag: 'issue',
      value: 'LetsEncrypt.org; accounturi=https://acme.example/acct/1; validationmethods=dns-01',
      issuer: 'letsencrypt.org',
      parameters: { accounturi: 'https://acme.example/acct/1', validationmethods: 'dns-01' },
      parse_error: null,
    });
    expect(caa('issuewild', ';')).toMatchObject({ issuer: null, parse_error: null });
    expect(caa('issue', '')).toMatchObject({ issuer: null, parse_error: null });
  });

  it('reads the critical flag, and leaves the value of an unknown but well-formed tag alone', () => {
    expect(caa('Future', 'x', 128)).toMatchObject({ critical: true, tag: 'future', parse_error: null });
    expect(caa('issuemail', 'ca.example.net; account=1')).toMatchObject({
      issuer: 'ca.example.net',
      parse_error: null,
    });
  });
});

const label = fc.stringMatching(/^[A-Za-z0-9](?:-{0,2}[A-Za-z0-9]){0,6}$/);
const wsp = fc.constantFrom('', ' ', '\t ');
const parameter = fc
  .tuple(label, wsp, wsp, fc.stringMatching(/^[\x21-\x3a\x3c-\x7e]{0,16}$/))
  .map(([tag, a, b, value]) => ({ text: `${tag}${a}=${b}${value}`, tag: tag.toLowerCase(), value }));

describe('values generated from the issue-value ABNF', () => {
  it('all parse, with the issuer and every parameter read back', () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join('.')),
          { nil: '' },
        ),
        fc.uniqueArray(parameter, { maxLength: 3, selector: (p) => p.tag }),
        wsp,
        wsp,
        (issuer, params, w1, w2) => {
          const tail = params.length === 0 ? '' : `;${w2}${params.map((p) => p.text).join(`${w1};${w2}`)}`;
          const r = caa('issue', `${w1}${issuer}${w1}${tail}`);
          expect(r.parse_error).toBeNull();
          expect(r.issuer).toBe(issuer === '' ? null : issuer.toLowerCase());
          expect(r.parameters).toEqual(Object.fromEntries(params.map((p) => [p.tag, p.value])));
        },
      ),
    );
  });
});

describe('properties with one production broken', () => {
  it.each([
    ['issue', 'lets encrypt', 0, 'issuer-domain-name'],
    ['issue', 'ca-.example', 0, 'issuer-domain-name'],
    ['issue', 'ca.example; noequals', 0, 'parameter'],
    ['issue', 'ca.example; a=b;', 0, 'parameter'],
    ['issue', 'ca.example; a=b c', 0, 'parameter'],
    ['issuewild', 'ca.example; -a=b', 0, 'parameter'],
    ['iodef', 'security@example.org', 0, 'iodef-value'],
    ['issuer-policy', 'x', 128, 'tag'],
    ['', 'x', 0, 'tag'],
    ['issue', 'ca.example', 1, 'flags'],
  ])('%s "%s" (flags %i) breaks %s', (tag, value, flags, production) => {
    expect(caa(tag, value, flags).parse_error).toContain(`breaks ${production}:`);
  });

  it('refuses iodef schemes CAs do not implement', () => {
    expect(caa('iodef', 'ftp://example.org/x').parse_error).toBe('iodef scheme ftp: is not mailto, http or https');
  });
});
