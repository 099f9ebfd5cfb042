// The DMARC parser against mox's DMARC tests (github.com/mjl-/mox, commit 1c9587665b32): every record of
// dmarc/parse_test.go with its expected parse, and the policy records of dmarc/dmarc_test.go and
// dmarc/examples_test.go with mox's verdict (the "v=DMARC1" report-authorisation records of
// TestLookupExternalReportsAccepted follow RFC 7489 section 7.1, not the policy grammar, and are left out). mox
// implements RFC 7489, so our RFC 7489 view (`errors_rfc7489`) is compared. Each disagreement is judged below.
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
 * Judged disagreements: receiver fallback. RFC 7489 section 6.6.3 (and RFC 9989 section 4.10.1) tells a receiver
 * that meets a record without a valid `p`, or with an invalid `sp`, but with a valid `rua`, to act as if `p=none`;
 * mox's parser returns such records as valid with policy none. The records still break the grammar (section 6.3:
 * `p` is required; `sp` must be a dmarc-request), and the owner's intended policy is lost, so our RFC 7489 view
 * reports them. (Our RFC 9989 view accepts the first, where a missing `p` reads as `p=none`.)
 *
 * Unregistered report format. Section 6.3 says the `rf` values MUST be registered formats (only `afrf` is) and
 * lets a receiver ignore the others; mox ignores `other`, OpenDMARC refuses `rf=bob`. A validator judges what
 * the owner publishes, so the MUST decides: we report it (and agree with OpenDMARC).
 */
const JUDGED: Record<string, string> = {
  'valid:v=DMARC1; rua=mailto:mjl@mox.example': 'receiver fallback for a missing p, RFC 7489 section 6.6.3',
  'valid:v=DMARC1; p=reject; sp=invalid; rua=mailto:mjl@mox.example':
    'receiver fallback for an invalid sp, RFC 7489 section 6.6.3',
  'valid:V = DMARC1 ; P = reject ;\tSP=none; unknown \t=\t ignored-future-value \t ; adkim=s; aspf=s; rua=mailto:dmarc-feedback@example.com  ,\t\tmailto:tld-test@thirdparty.example.net!10m; RUF=mailto:auth-reports@example.com  ,\t\tmailto:tld-test@thirdparty.example.net!0G; RI = 123; FO = 0:1:d:s ; RF= afrf : other; Pct = 0':
    'rf=afrf:other, an unregistered report format, RFC 7489 section 6.3',
};

const valid = (record: string) => parseDmarc(record).errors_rfc7489.length === 0;

function valuesAgree(record: string, expected: Values): boolean {
  const d = parseDmarc(record);
  const got: Values = {
    p: d.p ?? '',
    ...(d.sp === null ? {} : { sp: d.sp }),
    ...(d.adkim === null ? {} : { adkim: d.adkim }),
    ...(d.aspf === null ? {} : { aspf: d.aspf }),
    ...(d.rua.length === 0 ? {} : { rua: d.rua }),
    ...(d.ruf.length === 0 ? {} : { ruf: d.ruf }),
    ...(d.pct === null ? {} : { pct: d.pct }),
  };
  return valid(record) && JSON.stringify(got) === JSON.stringify(expected);
}

const outcomes = [
  ...BAD.map((r) => ({ id: `bad:${r}`, agrees: !valid(r) })),
  ...VALID.map(([r, v]) => ({ id: `valid:${r}`, agrees: valuesAgree(r, v) })),
  ...LOOKED_UP.map(([r, ok]) => ({ id: `lookup:${r}`, agrees: valid(r) === ok })),
];

describe('DMARC parser (RFC 7489 view) against mox (dmarc/parse_test.go, dmarc_test.go, examples_test.go)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  // 47 of 50: the three judged records keep this suite under the 97 % floor (issue 14), by choice.
  it('agrees on every case but the judged ones', () => {
    expectAgreement('mox DMARC', outcomes, JUDGED, 0.94);
  });
});
