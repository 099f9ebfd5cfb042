import { describe, it, expect } from 'vitest';
import { parseCaaRecord } from '../../../plugins/dns/parse-caa.ts';

describe('parseCaaRecord', () => {
  it('reads the issuer and parameters of issue', () => {
    expect(
      parseCaaRecord({
        flags: 0,
        tag: 'issue',
        value: 'LetsEncrypt.org; accounturi=https://acme.example/acct/1; validationmethods=dns-01',
      }),
    ).toEqual({
      flags: 0,
      critical: false,
      tag: 'issue',
      value: 'LetsEncrypt.org; accounturi=https://acme.example/acct/1; validationmethods=dns-01',
      issuer: 'letsencrypt.org',
      parameters: { accounturi: 'https://acme.example/acct/1', validationmethods: 'dns-01' },
      parse_error: null,
    });
  });

  it('reads ";" as "no CA may issue"', () => {
    expect(parseCaaRecord({ flags: 0, tag: 'issuewild', value: ';' })).toMatchObject({
      issuer: null,
      parse_error: null,
    });
  });

  it('reports issue values and iodef URLs that do not parse', () => {
    expect(parseCaaRecord({ flags: 0, tag: 'issue', value: 'not a domain' }).parse_error).toBe(
      '"not a domain" is not a domain name',
    );
    expect(parseCaaRecord({ flags: 0, tag: 'issue', value: 'ca.example; noequals' }).parse_error).toBe(
      '"noequals" is not a tag=value parameter',
    );
    expect(parseCaaRecord({ flags: 0, tag: 'iodef', value: 'ftp://example.org/x' }).parse_error).toBe(
      'iodef scheme ftp: is not mailto, http or https',
    );
    expect(parseCaaRecord({ flags: 0, tag: 'iodef', value: 'mailto:security@example.org' }).parse_error).toBeNull();
  });

  it('reads the critical flag and leaves unknown tags unparsed', () => {
    expect(parseCaaRecord({ flags: 128, tag: 'Future', value: 'x' })).toMatchObject({
      critical: true,
      tag: 'future',
      parse_error: null,
    });
  });
});
