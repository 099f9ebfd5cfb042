// The DMARC parser against OpenDMARC's library tests (github.com/trusteddomainproject/OpenDMARC, commit
// bf37d53dace4): the records of libopendmarc/tests/test_dmarc_parse.c with the parse status each expects, and
// the records test_dmarc_fetch.c and test_parse_to_buf.c expect to parse (with the values test_dmarc_fetch.c
// reads back). OpenDMARC implements RFC 7489, so our RFC 7489 view is compared. Disagreements are judged below.
import { describe, expect, it } from 'vitest';
import { parseDmarc } from '../../../../plugins/dns/parse-dmarc.ts';
import { expectAgreement } from '../../suite-agreement.ts';

/** [record, parses (DMARC_PARSE_OKAY) or not (any DMARC_PARSE_ERROR_*)]. */
const PARSE: [string, boolean][] = [
  ['v=DMARC1; p=none; rf=afrf; rua=mailto:dmarc-a@abuse.net; ruf=mailto:dmarc-f@abuse.net', true],
  ['v=DMARC1; p=none;', true],
  ['v=DMARC1; p=reject;', true],
  ['v=DMARC1; p=quarantine;', true],
  ['v=DMARC1; p=n;', true],
  ['', false],
  ['V=BOB', false],
  ['v=DMARC1; p=bob;', false],
  ['v=DMARC1; p=none; sp=bob;', false],
  ['v=DMARC1; p=none; adkim=bob;', false],
  ['v=DMARC1; p=none; aspf=bob;', false],
  ['v=DMARC1; p=none; rf=bob;', false],
  ['v=DMARC1; p=none; ri=bob;', false],
  ['v=DMARC1; p=none; pct=500;', false],
  ['v=DMARC1; pct=100;', false],
  ['v=DMARC1; p=none; rua=ftp://abuse.com', true],
  ['v=DMARC1; p=none; ruf=mailto://abuse.com', true],
  ['v=DMARC1; p=none; ruf=mailto://abuse.com; foo=bar; buzz=happy;', true],
  ['v=DMARC1; p=none; rf=000000000000000000000000000000000', false],
  // test_parse_to_buf.c
  ['v=DMARC1; p=none; rf=afrf; fo=1:s rua=mailto:dmarc-a@abuse.net; ruf=mailto:dmarc-f@abuse.net', true],
];

/** test_dmarc_fetch.c: the record parses and these values are read back. */
const FETCH =
  'v=DMARC1; p=none; sp=none; adkim=s; aspf=s; pct=50; ri=300; rf=afrf; rua=mailto:dmarc-a@abuse.net; ruf=mailto:dmarc-f@abuse.net';
const FETCHED = { p: 'none', sp: 'none', adkim: 's', aspf: 's', pct: 50 };

/**
 * Judged disagreements.
 * - `p=n`: OpenDMARC matches the request by its first letter; dmarc-request (RFC 7489 section 6.4) is the whole
 *   word `none`, `quarantine` or `reject`.
 * - `fo=1:s rua=...`: the record lacks the `;` before `rua`, so the `fo` value is `1:s rua=mailto:...`, which
 *   breaks dmarc-fo; OpenDMARC stops reading the value at the space. The record is a typo in a test of buffer
 *   output, and a receiver that reads it strictly drops both tags.
 */
const JUDGED: Record<string, string> = {
  'v=DMARC1; p=n;': 'dmarc-request is a whole word',
  'v=DMARC1; p=none; rf=afrf; fo=1:s rua=mailto:dmarc-a@abuse.net; ruf=mailto:dmarc-f@abuse.net':
    'a missing ";" makes the fo value break dmarc-fo',
};

const valid = (record: string) => parseDmarc(record).errors_rfc7489.length === 0;
const fetched = () => {
  const { p, sp, adkim, aspf, pct } = parseDmarc(FETCH);
  return valid(FETCH) && JSON.stringify({ p, sp, adkim, aspf, pct }) === JSON.stringify(FETCHED);
};

const outcomes = [
  ...PARSE.map(([record, ok]) => ({ id: record, agrees: valid(record) === ok })),
  { id: `fetch:${FETCH}`, agrees: fetched() },
];

describe('DMARC parser (RFC 7489 view) against OpenDMARC (libopendmarc/tests)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  // 19 of 21: the two judged records keep this small suite under the 97 % floor (issue 14).
  it('agrees on every case but the judged ones', () => {
    expectAgreement('OpenDMARC', outcomes, JUDGED, 0.9);
  });
});
