// The DMARC parser against mox's DMARC tests (github.com/mjl-/mox, commit 1c9587665b32): every record of
// dmarc/parse_test.go with its expected parse, and the policy records of dmarc/dmarc_test.go and
// dmarc/examples_test.go with mox's verdict (the "v=DMARC1" report-authorisation records of
// TestLookupExternalReportsAccepted follow RFC 7489 section 7.1, not the policy grammar, and are left out). mox
// implements RFC 7489 as a receiver, so what a receiver applies (`effective_policy`) is compared. Each disagreement is judged below.
import { describe, expect, it } from 'vitest';
import { parseDmarc } from '../../../../plugins/dns/parse-dmarc.ts';
import { expectAgreement } from '../../suite-agreement.ts';

/** The values mox's test compares, as written in the record (report URIs with their "!size" suffix). */
interface Values {
  p: string;
  sp?: string;
  adkim?: string;
  aspf?: string;
  rua?: string[];
  ruf?: string[];
  pct?: number;
}

/** dmarc/parse_test.go: records mox refuses. */
const BAD = [
  '',
  'v=',
  'v=DMARC12',
  'v=DMARC1',
  'v=dmarc1; p=none',
  'v=DMARC1 p=none',
  'v=DMARC1;',
  'v=DMARC1; sp=invalid',
  'v=DMARC1; sp=reject; p=reject',
  'v=DMARC1; p=none; p=none',
  'v=DMARC1; p=none; p=reject',
  'v=DMARC1;;',
  'v=DMARC1; adkim=x',
  'v=DMARC1; aspf=123',
  'v=DMARC1; ri=',
  'v=DMARC1; ri=-1',
  'v=DMARC1; ri=99999999999999999999999999999999999999',
  'v=DMARC1; ri=123bad',
  'v=DMARC1; ri=bad',
  'v=DMARC1; fo=',
  'v=DMARC1; fo=01',
  'v=DMARC1; fo=bad',
  'v=DMARC1; rf=bad-trailing-dash-',
  'v=DMARC1; rf=',
  'v=DMARC1; rf=bad.non-alphadigitdash',
  'v=DMARC1; p=badvalue',
  'v=DMARC1; sp=bad',
  'v=DMARC1; pct=110',
  'v=DMARC1; pct=bogus',
  'v=DMARC1; pct=',
  'v=DMARC1; rua=',
  'v=DMARC1; rua=bogus',
  'v=DMARC1; rua=mailto:dmarc-feedback@example.com!',
  'v=DMARC1; rua=mailto:dmarc-feedback@example.com!99999999999999999999999999999999999999999999999',
  'v=DMARC1; rua=mailto:dmarc-feedback@example.com!10p',
];

/** dmarc/parse_test.go: records mox parses, with the values it expects. */
const VALID: [string, Values][] = [
  ['v=DMARC1; rua=mailto:mjl@mox.example', { p: 'none', rua: ['mailto:mjl@mox.example'] }],
  ['v=DMARC1; p=reject; sp=invalid; rua=mailto:mjl@mox.example', { p: 'none', rua: ['mailto:mjl@mox.example'] }],
  [
    'v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com',
    { p: 'none', rua: ['mailto:dmarc-feedback@example.com'] },
  ],
  [
    'v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com;ruf=mailto:auth-reports@example.com',
    { p: 'none', rua: ['mailto:dmarc-feedback@example.com'], ruf: ['mailto:auth-reports@example.com'] },
  ],
  [
    'v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net!10m; pct=25',
    {
      p: 'quarantine',
      rua: ['mailto:dmarc-feedback@example.com', 'mailto:tld-test@thirdparty.example.net!10m'],
      pct: 25,
    },
  ],
  [
    'V = DMARC1 ; P = reject ;\tSP=none; unknown \t=\t ignored-future-value \t ; adkim=s; aspf=s; rua=mailto:dmarc-feedback@example.com  ,\t\tmailto:tld-test@thirdparty.example.net!10m; RUF=mailto:auth-reports@example.com  ,\t\tmailto:tld-test@thirdparty.example.net!0G; RI = 123; FO = 0:1:d:s ; RF= afrf : other; Pct = 0',
    {
      p: 'reject',
      sp: 'none',
      adkim: 's',
      aspf: 's',
      rua: ['mailto:dmarc-feedback@example.com', 'mailto:tld-test@thirdparty.example.net!10m'],
      ruf: ['mailto:auth-reports@example.com', 'mailto:tld-test@thirdparty.example.net!0G'],
      pct: 0,
    },
  ],
];

/** dmarc/dmarc_test.go and examples_test.go: policy records mox applies (true) or refuses as ErrSyntax (false). */
const LOOKED_UP: [string, boolean][] = [
  ['v=DMARC1; p=none;', true],
  ['v=DMARC1; p=none; bogus;', false],
  ['v=DMARC1; p=reject', true],
  ['v=DMARC1; p=reject; adkim=s; aspf=s', true],
  ['v=DMARC1; p=reject; pct=0', true],
  ['v=DMARC1; p=reject; sp=none', true],
  ['v=DMARC1; p=none', true],
  ['v=DMARC1; p=none; bogus', false],
  ['v=DMARC1; p=reject; rua=mailto:postmaster@mox.example', true],
];

/**
 * mox answers as a receiver: the record it acts on, or none. So the receiver's view is compared: whether a policy
 * is applied (`effective_policy`, RFC 7489 section 6.6.3 step 6) and its values. A record without a valid p, or
 * with an invalid sp, but with a valid rua is acted on as a record holding p=none (and nothing else but the report
 * addresses), as mox does. Other bad values are discarded for their defaults (section 6.3): mox ignores the
 * unregistered report format `other` in `rf=afrf:other` and applies p=reject, and so does a receiver by our facts
 * (the strict views, `errors` and `errors_rfc7489`, still report it; OpenDMARC's suite checks those).
 */
const JUDGED: Record<string, string> = {};

const applied = (record: string) => parseDmarc(record).effective_policy !== null;

function valuesAgree(record: string, expected: Values): boolean {
  const d = parseDmarc(record);
  const fallback = d.effective_policy !== d.p;
  const got: Values = {
    p: d.effective_policy ?? '',
    ...(d.sp === null || fallback ? {} : { sp: d.sp }),
    ...(d.adkim === null || fallback ? {} : { adkim: d.adkim }),
    ...(d.aspf === null || fallback ? {} : { aspf: d.aspf }),
    ...(d.rua.length === 0 ? {} : { rua: d.rua }),
    ...(d.ruf.length === 0 || fallback ? {} : { ruf: d.ruf }),
    ...(d.pct === null || fallback ? {} : { pct: d.pct }),
  };
  return applied(record) && JSON.stringify(got) === JSON.stringify(expected);
}

const outcomes = [
  ...BAD.map((r) => ({ id: `bad:${r}`, agrees: !applied(r) })),
  ...VALID.map(([r, v]) => ({ id: `valid:${r}`, agrees: valuesAgree(r, v) })),
  ...LOOKED_UP.map(([r, ok]) => ({ id: `lookup:${r}`, agrees: applied(r) === ok })),
];

describe('DMARC receiver view against mox (dmarc/parse_test.go, dmarc_test.go, examples_test.go)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  it('agrees on every case', () => {
    expectAgreement('mox DMARC', outcomes, JUDGED);
  });
});
