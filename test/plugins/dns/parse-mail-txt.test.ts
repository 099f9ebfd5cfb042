import { describe, it, expect } from 'vitest';
import { parseBimi, parseMtaSts, parseTlsRpt } from '../../../plugins/dns/parse-mail-txt.ts';
import { parseTagList, recordsWithVersion } from '../../../plugins/dns/parse-tags.ts';
import { SPF_VERSION } from '../../../plugins/dns/parse-spf.ts';

describe('tag lists', () => {
  it('parses tag=value pairs with whitespace and a trailing ";"', () => {
    expect(parseTagList(' v = STSv1 ; id=abc ;')).toEqual({
      tags: [
        ['v', 'STSv1'],
        ['id', 'abc'],
      ],
      errors: [],
    });
  });
  it('reports pairs without "=" and empty tags in the middle', () => {
    expect(parseTagList('v=1;; junk').errors).toEqual(['empty tag between two ";"', '"junk" is not a tag=value pair']);
  });
  it('joins the strings of each TXT record and keeps those with the version tag, sorted', () => {
    expect(
      recordsWithVersion([['v=spf1 ', '-all'], ['google-site-verification=x'], ['v=spf1 a -all']], SPF_VERSION),
    ).toEqual(['v=spf1 -all', 'v=spf1 a -all']);
  });
});

describe('mail policy records', () => {
  it('MTA-STS needs an alphanumeric id', () => {
    expect(parseMtaSts('v=STSv1; id=20240101T000000')).toEqual({ id: '20240101T000000', errors: [] });
    expect(parseMtaSts('v=STSv1;').errors).toEqual(['id is missing']);
    expect(parseMtaSts('v=STSv1; id=2024-01-01').errors).toEqual(['id=2024-01-01 is not 1 to 32 letters and digits']);
  });
  it('TLS-RPT needs mailto: or https: report URIs', () => {
    expect(parseTlsRpt('v=TLSRPTv1; rua=mailto:tls@example.org,https://r.example/tls')).toEqual({
      rua: ['mailto:tls@example.org', 'https://r.example/tls'],
      errors: [],
    });
    expect(parseTlsRpt('v=TLSRPTv1').errors).toEqual(['rua is missing']);
    expect(parseTlsRpt('v=TLSRPTv1; rua=http://r.example').errors).toEqual([
      'rua http://r.example is not a mailto: or https: URI',
    ]);
  });
  it('BIMI reads the logo and certificate locations', () => {
    expect(parseBimi('v=BIMI1; l=https://example.org/logo.svg; a=')).toEqual({
      location: 'https://example.org/logo.svg',
      authority: null,
      errors: [],
    });
    expect(parseBimi('v=BIMI1; l=http://example.org/logo.svg').errors).toEqual([
      'l=http://example.org/logo.svg is not an https URL',
    ]);
  });
});
