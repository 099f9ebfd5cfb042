// The DMARC parser against checkdmarc's tests (github.com/domainaware/checkdmarc, commit d4866ca25b09,
// tests/test_dmarc.py): every record given to parse_dmarc_record or check_dmarc, with whether checkdmarc parses
// it (warnings allowed) or raises, and the explicit tag values it asserts. checkdmarc implements RFC 9989, so our
// RFC 9989 view (`errors`) is compared. Disagreements are judged below.
import { describe, expect, it } from 'vitest';
import { parseDmarc } from '../../../../plugins/dns/parse-dmarc.ts';
import { expectAgreement } from '../../suite-agreement.ts';

type Values = Partial<Record<'p' | 'sp' | 'np' | 't', string | null>>;

/** Records checkdmarc parses, with the explicit values its tests read (null: the tag is absent). */
const VALID: [string, Values][] = [
  ['v=DMARC1;p=ReJect', {}],
  ['v = DMARC1;p=reject;', { p: 'reject' }],
  ['v = DMARC1\t;\tp=reject\t;', { p: 'reject' }],
  ['v = DMARC1\t;\tp\t\t\t=\t\t\treject\t;', { p: 'reject' }],
  ['V=DMARC1;p=reject;', { p: 'reject' }],
  ['v=DMARC1; p=reject; np=quarantine', { np: 'quarantine' }],
  ['v=DMARC1; p=reject; psd=n', {}],
  ['v=DMARC1; p=reject; t=y', { t: 'y' }],
  ['v=DMARC1; p=reject; pct=100', {}],
  ['v=DMARC1; p=reject; rf=afrf', {}],
  ['v=DMARC1; p=reject; ri=3600', {}],
  ['v=DMARC1; rua=mailto:dmarc@example.com', { p: null }],
  ['v=DMARC1; p=reject; sp=quarantine', { sp: 'quarantine', np: null }],
  ['v=DMARC1; p=reject', { p: 'reject', np: null, t: null }],
  [
    'v=DMARC1; p=none; sp=none; fo=1; pct=50; adkim=r; aspf=r; rf=afrf; ri=86400; rua=mailto:eits.dmarcrua@energy.gov; ruf=mailto:eits.dmarcruf@energy.gov',
    {},
  ],
  ['v=DMARC1; p=reject; xyz=foo', {}],
  ['v=DMARC1; p=reject; pct=0', {}],
  ['v=DMARC1; p=reject; pct=150', {}],
  ['v=DMARC1; p=reject; pct=-1', {}],
  ['v=DMARC1; p=reject; pct=abc', {}],
  ['v=DMARC1; p=reject; ri=abc', {}],
  ['v=DMARC1; p=reject; fo=0:1', {}],
  ['v=DMARC1; p=reject; rf=invalid', {}],
  ['v=DMARC1; p=reject; sp=none', { sp: 'none' }],
  ['v=DMARC1; p=none', { p: 'none' }],
  ['v=DMARC1; sp=none; p=reject', { p: 'reject' }],
  ['v=DMARC1; p=reject; rua=mailto:dmarc@example.com!10m', {}],
  ['v=DMARC1; p=reject; rua=mailto:dmarc@elsewhere.com', {}],
  ['v=DMARC1; p=reject; rua=mailto:dmarc0@example.com,mailto:dmarc1@example.com,mailto:dmarc2@example.com', {}],
  ['v=DMARC1; p=reject; rua=mailto:dmarc@example.com; ruf=mailto:forensic@elsewhere.com!5m', {}],
  [
    'v=DMARC1; p=reject; rua=mailto:dmarc@example.com; ruf=mailto:forensic0@example.com,mailto:forensic1@example.com,mailto:forensic2@example.com',
    {},
  ],
];

/** Records checkdmarc refuses (a syntax, tag or value error, or an SPF record where DMARC should be). */
const INVALID = [
  'v=DMARC1; p=none; rua=reports@dmarc.cyber.dhs.gov,mailto:dmarcreports@usdoj.gov',
  'v=DMARC1; p=none; rua=__mailto:reports@dmarc.cyber.dhs.gov,mailto:dmarcreports@usdoj.gov',
  'v=DMARC1; p=foo; rua=mailto:dmarc@example.com',
  'v=DMARC1; p=reject; np=invalid',
  'v=DMARC1; p=reject; psd=x',
  'v=DMARC1; p=reject; t=x',
  'v=DMARC1; p',
  'v=DMARC1; p=reject; fo=invalid_value',
  'v=DMARC1; p=reject; p=none',
  'v=spf1 include:example.com -all',
  'v=DMARC1; p=reject; fo=x',
  'v=DMARC1; p=reject; sp=invalid',
  'v=DMARC1; p=invalid',
];

/**
 * Judged disagreement. checkdmarc only warns that `fo=0:1` is redundant; RFC 9989's dmarc-fo makes `0` and `1`
 * exclusive alternatives (at most one of them), so the record breaks the grammar. (RFC 7489 allowed both; our
 * RFC 7489 view accepts it.)
 */
const JUDGED: Record<string, string> = {
  'valid:v=DMARC1; p=reject; fo=0:1': 'RFC 9989 dmarc-fo: 0 and 1 are exclusive',
};

const valuesAgree = (record: string, expected: Values) => {
  const d = parseDmarc(record);
  return d.errors.length === 0 && Object.entries(expected).every(([k, v]) => d[k as keyof Values] === v);
};

const outcomes = [
  ...VALID.map(([r, v]) => ({ id: `valid:${r}`, agrees: valuesAgree(r, v) })),
  ...INVALID.map((r) => ({ id: `invalid:${r}`, agrees: parseDmarc(r).errors.length > 0 })),
];

describe('DMARC parser (RFC 9989 view) against checkdmarc (tests/test_dmarc.py)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  it('agrees on at least 97 % of the cases, every disagreement judged', () => {
    expectAgreement('checkdmarc', outcomes, JUDGED);
  });
});
