// The Strict-Transport-Security parser against two browsers' parser tests: Chromium's
// (github.com/chromium/chromium, net/http/http_security_headers_unittest.cc, commit 19fc6b1c9fc6) and Firefox's
// (security/manager/ssl/tests/unit/test_sts_parser.js, as mirrored in Floorp-Projects/Floorp, commit
// 0618bc2eb011). Each header, whether the browser accepts it, and the max-age and includeSubDomains it reads
// are facts about RFC 6797. Each header is one field line, as the browsers read it.
import { describe, expect, it } from 'vitest';
import { parseHsts } from '../../../../plugins/http/parse-hsts.ts';
import { expectAgreement } from '../../suite-agreement.ts';

/** [header, null when refused, else [max-age, includeSubDomains]]. */
type Case = [string, [number, boolean] | null];

/** Chromium caps a stored max-age at one year (kMaxHSTSAgeSecs); a storage policy, applied to our value too. */
const CHROMIUM_MAX_AGE = 86400 * 365;

const ok = (maxAge: number, sub = false): [number, boolean] => [maxAge, sub];

const CHROMIUM: Case[] = [
  // LeadingTrailingSemicolons
  ...[
    'max-age=123',
    ';max-age=123',
    ';;max-age=123',
    ';;;;max-age=123',
    '; ;max-age=123',
    '; ; max-age=123',
    ';max-age=123;',
    ';;max-age=123;;',
    ';;;;max-age=123;;;;',
    '; ;max-age=123; ;',
    '; ; max-age=123; ; ',
    'max-age=123;',
    'max-age=123;;',
    'max-age=123;;;;',
    'max-age=123; ;',
    'max-age=123; ; ',
  ].map((h): Case => [h, ok(123)]),
  // InvalidDirectiveNames, InvalidDirectiveValues and BogusHeaders
  ...[
    "'max-age'=1",
    '"max-age"=1',
    'max-age=1; max-age=2',
    'max-age=1; MaX-AgE=2',
    'max-age=1; includeSubDomains; iNcLUdEsUbDoMaInS',
    'max-age=1; "',
    'max-age=1; "includeSubdomains',
    'max-age=1; in"cludeSubdomains',
    'max-age=1; includeSubdomains"',
    'max-age=1; "includeSubdomains"',
    'max-age=1; includeSubdomains; non"token',
    'max-age=1; includeSubdomains; non@token',
    'max-age=1; includeSubdomains; non,token',
    'max-age=1; =2',
    'max-age=1; =2; unknownDirective',
    'max-age=',
    'max-age=@',
    'max-age=1a;',
    'max-age=1a2;',
    'max-age=1##;',
    'max-age=12";',
    'max-age=-1;',
    'max-age=+1;',
    "max-age='1';",
    'max-age=1abc;',
    'max-age=1 abc;',
    'max-age=1.5;',
    'max-age=1; includeSubDomains=true',
    'max-age=1; includeSubDomains=false',
    'max-age=1; includeSubDomains=""',
    "max-age=1; includeSubDomains=''",
    'max-age=1; includeSubDomains="true"',
    'max-age=1; includeSubDomains="false"',
    'max-age=1; unknownDirective=non"token',
    'max-age=1; unknownDirective=non@token',
    'max-age=1; unknownDirective=non,token',
    'max-age=1; unknownDirective=',
    '',
    '    ',
    'abc',
    '  abc',
    '  abc   ',
    'max-age',
    '  max-age',
    '  max-age  ',
    '   max-age=',
    '   max-age  =',
    '   max-age=   ',
    '   max-age  =     ',
    '   max-age  =     xy',
    '   max-age  =     3488a923',
    'max-age=3488a923  ',
    'max-ag=3488923',
    'max-aged=3488923',
    'max-age==3488923',
    'amax-age=3488923',
    'max-age=-3488923',
    'max-age=+3488923',
    'max-age=13####',
    'max-age=9223372036854775807#####',
    'max-age=18446744073709551615####',
    'max-age=999999999999999999999999$.&#!',
    'max-age=3488923     e',
    'max-age=3488923     includesubdomain',
    'max-age=3488923includesubdomains',
    'max-age=3488923=includesubdomains',
    'max-age=3488923 includesubdomainx',
    'max-age=3488923 includesubdomain=',
    'max-age=3488923 includesubdomain=true',
    'max-age=3488923 includesubdomainsx',
    'max-age=3488923 includesubdomains x',
    'max-age=34889.23 includesubdomains',
    'max-age=34889 includesubdomains',
    ';;;; ;;;',
    ';;;; includeSubDomains;;;',
    '   includeSubDomains;  ',
    ';',
    'max-age; ;',
  ].map((h): Case => [h, null]),
  // ValidSTSHeaders
  ['max-age=243', ok(243)],
  ['max-age=3488923;', ok(3488923)],
  ['  Max-agE    = 567', ok(567)],
  ['  mAx-aGe    = 890      ', ok(890)],
  ['max-age=123;incLudesUbdOmains', ok(123, true)],
  ['incLudesUbdOmains; max-age=123', ok(123, true)],
  ['   incLudesUbdOmains; max-age=123', ok(123, true)],
  ['   incLudesUbdOmains; max-age=123; pumpkin=kitten', ok(123, true)],
  ['   pumpkin=894; incLudesUbdOmains; max-age=123  ', ok(123, true)],
  ['   pumpkin; incLudesUbdOmains; max-age=123  ', ok(123, true)],
  ['   pumpkin; incLudesUbdOmains; max-age="123"  ', ok(123, true)],
  ['animal="squirrel; distinguished"; incLudesUbdOmains; max-age=123', ok(123, true)],
  ['max-age=394082;  incLudesUbdOmains', ok(394082, true)],
  ['max-age=39408299  ;incLudesUbdOmains', ok(CHROMIUM_MAX_AGE, true)],
  ['max-age=394082038  ; incLudesUbdOmains', ok(CHROMIUM_MAX_AGE, true)],
  ['max-age=394082038  ; incLudesUbdOmains;', ok(CHROMIUM_MAX_AGE, true)],
  [';; max-age=394082038  ; incLudesUbdOmains; ;', ok(CHROMIUM_MAX_AGE, true)],
  [';; max-age=394082038  ;', ok(CHROMIUM_MAX_AGE)],
  [';;    ; ; max-age=394082038;;; includeSubdomains     ;;  ;', ok(CHROMIUM_MAX_AGE, true)],
  ['incLudesUbdOmains   ; max-age=394082038 ;;', ok(CHROMIUM_MAX_AGE, true)],
  ['  max-age=0  ;  incLudesUbdOmains   ', ok(0, true)],
  ['  max-age=999999999999999999999999999999999999999999999  ;  incLudesUbdOmains   ', ok(CHROMIUM_MAX_AGE, true)],
];

const FIREFOX: Case[] = [
  ['max-age=100', ok(100)],
  ['max-age  =100', ok(100)],
  [' max-age=100', ok(100)],
  ['max-age = 100 ', ok(100)],
  ['max-age = "100" ', ok(100)],
  ['max-age="100"', ok(100)],
  [' max-age ="100" ', ok(100)],
  ['\tmax-age\t=\t"100"\t', ok(100)],
  ['max-age  =       100             ', ok(100)],
  ['maX-aGe=100', ok(100)],
  ['MAX-age  =100', ok(100)],
  ['max-AGE=100', ok(100)],
  ['Max-Age = 100 ', ok(100)],
  ['MAX-AGE = 100 ', ok(100)],
  ['max-age=100;includeSubdomains', ok(100, true)],
  ['max-age=100\t; includeSubdomains', ok(100, true)],
  [' max-age=100; includeSubdomains', ok(100, true)],
  ['max-age = 100 ; includeSubdomains', ok(100, true)],
  ['max-age  =       100             ; includeSubdomains', ok(100, true)],
  ['maX-aGe=100; includeSUBDOMAINS', ok(100, true)],
  ['MAX-age  =100; includeSubDomains', ok(100, true)],
  ['max-AGE=100; iNcLuDeSuBdoMaInS', ok(100, true)],
  ['Max-Age = 100; includesubdomains ', ok(100, true)],
  ['INCLUDESUBDOMAINS;MaX-AgE = 100 ', ok(100, true)],
  ['max-age=100;includeSubdomains;', ok(100, true)],
  ['max-age=100 ; includesubdomainsSomeStuff', ok(100)],
  [
    '\r\n\t\t    \tcompletelyUnrelated = foobar; max-age= 34520103\t \t; alsoUnrelated;asIsThis;\tincludeSubdomains\t\t \t',
    ok(34520103, true),
  ],
  ['max-age=100; unrelated="quoted \\"thingy\\""', ok(100)],
  ...[
    'max-age',
    'max-age ',
    'max-age=p',
    'max-age=*1p2',
    'max-age=.20032',
    'max-age=!20032',
    'max-age==20032',
    'foobar',
    'maxage=100',
    'maxa-ge=100',
    'max-ag=100',
    'includesubdomains',
    ';',
    'max-age="100',
    'max-age=100, max-age=200; includeSubdomains',
    'max-age=100 includesubdomains',
    'max-age=100 bar foo',
    'max-age=100randomstuffhere',
    'max-age=100; max-age=200',
    'includeSubdomains; max-age=200; includeSubdomains',
    'max-age=200; includeSubdomains; includeSubdomains',
    'max-age=100; includeSubdomains=unexpected',
    '\r\nmax-age=200',
  ].map((h): Case => [h, null]),
];

function agrees([header, expected]: Case, cap = Number.MAX_SAFE_INTEGER): boolean {
  const h = parseHsts([header]);
  if (expected === null) return !h.valid;
  return h.valid && Math.min(h.max_age!, cap) === expected[0] && h.include_subdomains === expected[1];
}

const chromium = CHROMIUM.map((c) => ({ id: c[0], agrees: agrees(c, CHROMIUM_MAX_AGE) }));
const firefox = FIREFOX.map((c) => ({ id: c[0], agrees: agrees(c) }));

describe('Strict-Transport-Security against Chromium (http_security_headers_unittest.cc)', () => {
  it.each(chromium)('$id', ({ agrees }) => expect(agrees).toBe(true));
  it('agrees on at least 97 % of the cases, every disagreement judged', () => {
    expectAgreement('Chromium HSTS', chromium, {});
  });
});

describe('Strict-Transport-Security against Firefox (test_sts_parser.js)', () => {
  it.each(firefox)('$id', ({ agrees }) => expect(agrees).toBe(true));
  it('agrees on at least 97 % of the cases, every disagreement judged', () => {
    expectAgreement('Firefox HSTS', firefox, {});
  });
});
