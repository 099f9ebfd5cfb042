// MTA-STS (RFC 8461 section 3.1), TLS-RPT (RFC 8460 section 3) and BIMI records three ways: the documents'
// own examples, records generated from their ABNF, and records with one production broken.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BIMI_VERSION,
  MTA_STS_VERSION,
  parseBimi,
  parseMtaSts,
  parseTlsRpt,
  TLS_RPT_VERSION,
} from '../../../plugins/dns/parse-mail-txt.ts';
import { recordsWithVersion } from '../../../plugins/dns/parse-tags.ts';
import { SPF_VERSION } from '../../../plugins/dns/parse-spf.ts';

const productions = (errors: string[]) => errors.map((e) => e.match(/breaks ([a-z-]+)/)?.[1]);

describe('the documents examples', () => {
  it('RFC 8461 section 3.1', () => {
    expect(parseMtaSts('v=STSv1; id=20160831085700Z;')).toEqual({ id: '20160831085700Z', errors: [] });
  });
  it('RFC 8460 section 3.3', () => {
    expect(parseTlsRpt('v=TLSRPTv1;rua=mailto:reports@example.com')).toEqual({
      rua: ['mailto:reports@example.com'],
      errors: [],
    });
    expect(parseTlsRpt('v=TLSRPTv1; rua=https://reporting.example.com/v1/tlsrpt').errors).toEqual([]);
  });
  it('BIMI: declination records', () => {
    expect(parseBimi('v=BIMI1; l=; a=;')).toEqual({ location: null, authority: null, errors: [] });
    expect(parseBimi('v=BIMI1; l=; a=; lps=brand-indicators-;').errors).toEqual([]);
  });
  it('joins the strings of each TXT record and keeps those with the version tag, sorted', () => {
    expect(
      recordsWithVersion([['v=spf1 ', '-all'], ['google-site-verification=x'], ['v=spf1 a -all']], SPF_VERSION),
    ).toEqual(['v=spf1 -all', 'v=spf1 a -all']);
    expect([
      MTA_STS_VERSION.test('v=STSv1;id=1'),
      MTA_STS_VERSION.test('v=STSv10;'),
      MTA_STS_VERSION.test('V=STSv1;'),
    ]).toEqual([true, false, false]);
    expect([TLS_RPT_VERSION.test('v=TLSRPTv1 ;'), BIMI_VERSION.test('v = BIMI1;')]).toEqual([true, true]);
  });
});

const delim = fc.tuple(fc.constantFrom('', ' ', '\t'), fc.constantFrom('', ' ')).map(([a, b]) => `${a};${b}`);
const extension = fc
  .tuple(fc.stringMatching(/^x[A-Za-z0-9_.-]{0,8}$/), fc.stringMatching(/^[\x21-\x3a\x3c\x3e-\x7e]{1,12}$/))
  .map(([n, v]) => `${n}=${v}`);
const uri = fc.oneof(
  fc.tuple(fc.stringMatching(/^[a-z0-9.]{1,8}$/), fc.domain()).map(([l, d]) => `mailto:${l}@${d}`),
  fc.tuple(fc.domain(), fc.stringMatching(/^(\/[a-z0-9]{1,6}){0,3}$/)).map(([d, p]) => `https://${d}${p}`),
);

describe('records generated from the ABNF', () => {
  it('MTA-STS: sts-version, the id and extensions in any order', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9]{1,32}$/);
    fc.assert(
      fc.property(
        id,
        fc.uniqueArray(extension, { maxLength: 3, selector: (e) => e.split('=')[0]!.toLowerCase() }),
        fc.nat(),
        fc.array(delim, { minLength: 5, maxLength: 5 }),
        fc.boolean(),
        (value, ext, at, seps, trailing) => {
          const fields = [...ext];
          fields.splice(at % (ext.length + 1), 0, `id=${value}`);
          const text = `v=STSv1${fields.map((f, i) => seps[i] + f).join('')}${trailing ? ';' : ''}`;
          expect(MTA_STS_VERSION.test(text)).toBe(true);
          expect(parseMtaSts(text)).toEqual({ id: value, errors: [] });
        },
      ),
    );
  });

  it('TLS-RPT: rua with mailto: and https: URIs, and extensions', () => {
    fc.assert(
      fc.property(
        fc.array(uri, { minLength: 1, maxLength: 3 }),
        fc.uniqueArray(extension, { maxLength: 2, selector: (e) => e.split('=')[0]!.toLowerCase() }),
        delim,
        (list, ext, sep) => {
          const text = ['v=TLSRPTv1', `rua=${list.join(' , ')}`, ...ext].join(sep);
          expect(parseTlsRpt(text)).toEqual({ rua: list, errors: [] });
        },
      ),
    );
  });

  it('BIMI: l= with an https URI or empty, optional a=, avp= and lps=', () => {
    const https = fc.tuple(fc.domain(), fc.stringMatching(/^\/[a-z]{1,6}\.svg$/)).map(([d, p]) => `https://${d}${p}`);
    fc.assert(
      fc.property(
        fc.option(https, { nil: '' }),
        fc.option(https, { nil: undefined }),
        fc.option(fc.constantFrom('brand', 'personal'), { nil: undefined }),
        delim,
        (l, a, avp, sep) => {
          const text = [
            'v=BIMI1',
            `l=${l}`,
            ...(a === undefined ? [] : [`a=${a}`]),
            ...(avp === undefined ? [] : [`avp=${avp}`]),
          ].join(sep);
          expect(parseBimi(text)).toEqual({ location: l || null, authority: a ?? null, errors: [] });
        },
      ),
    );
  });
});

describe('records with one production broken', () => {
  // [record, the productions it breaks (a refused field also leaves a required one missing)]
  const sts: Array<[string, ...string[]]> = [
    ['v=STSv1', 'sts-id'],
    ['v=STSv1; id=2024-01-01', 'sts-id'],
    ['v=STSv1; id=123456789012345678901234567890123', 'sts-id'],
    ['v=STSv1; id =1', 'sts-field', 'sts-id'],
    ['v=STSv1; id=1; ext=a b', 'sts-extension'],
    ['v=STSv1; id=1; -ext=1', 'sts-field'],
    ['v=STSv1;; id=1', 'sts-field'],
    ['v=STSv1; id=1; v=STSv1', 'sts-field'],
  ];
  it.each(sts)('MTA-STS "%s" breaks %s', (record, ...broken) => {
    expect(productions(parseMtaSts(record).errors)).toEqual(broken);
  });

  const tlsrpt: Array<[string, ...string[]]> = [
    ['v=TLSRPTv1', 'tlsrpt-rua'],
    ['v=TLSRPTv1; rua=http://r.example', 'tlsrpt-uri'],
    ['v=TLSRPTv1; rua=tls@example.org', 'tlsrpt-uri'],
    ['v=TLSRPTv1; rua=mailto:a@example.org!10m', 'tlsrpt-uri'],
    ['v=TLSRPTv1; rua = mailto:a@example.org', 'tlsrpt-field', 'tlsrpt-rua'],
    ['v=TLSRPTv1; rua=mailto:a@example.org; x=a=b', 'tlsrpt-extension'],
  ];
  it.each(tlsrpt)('TLS-RPT "%s" breaks %s', (record, ...broken) => {
    expect(productions(parseTlsRpt(record).errors)).toEqual(broken);
  });

  const bimi: Array<[string, string]> = [
    ['v=BIMI1', 'bimi-location'],
    ['v=BIMI1; l=http://example.org/logo.svg', 'bimi-uri'],
    ['v=BIMI1; l=https://localhost/logo.svg', 'bimi-uri'],
    ['v=BIMI1; l=https://example.org/a,b.svg', 'bimi-uri'],
    ['v=BIMI1; l=; a=ftp://example.org/vmc.pem', 'bimi-uri'],
    ['v=BIMI1; l=; avp=logo', 'bimi-logo-preference'],
    ['v=BIMI1; l=; lps=a_b', 'local-part-selector'],
    ['v=BIMI1; l=; l=', 'tag-spec'],
    ['v=bimi1; l=', 'bimi-version'],
  ];
  it.each(bimi)('BIMI "%s" breaks %s', (record, production) => {
    expect(productions(parseBimi(record).errors)).toEqual([production]);
  });
});
