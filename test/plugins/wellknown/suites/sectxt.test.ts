// The security.txt parser against the tests of sectxt, the validator behind internet.nl
// (github.com/DigitalTrustCenter/sectxt, commit 2251a4ecc6a9, test/test_sectxt.py): each file its Parser reads
// and what the test expects of it, transcribed below. Dates the test computes from the day it runs are computed
// from TODAY. The tests that fetch over HTTP (SecurityTXT with a mocked server) or read a local file test the
// fetching, not the format, and are left out, except the one whose point is the file's bytes (a double byte order
// mark), which the Parser test of the same bytes covers. One disagreement was ours: a blank line after the
// signature block is outside RFC 9116's `signed` (it ends with sign-footer), and the parser now reports it;
// another was a check no rule made (a CSAF field naming a file other than provider-metadata.json), now
// wellknown.security_txt.csaf_provider_metadata, which the CSAF cases run.
//
// What is compared: sectxt's `is_valid()` and its error codes are read against our facts. A file is well-formed
// for us when the parser reports no error and, for a signed file, the signature block is readable OpenPGP
// (checkCleartextSignature: not `unreadable`; sectxt never checks the signature cryptographically, so a digest
// that no longer matches the edited example is not a difference). sectxt's policy findings (expired, long expiry,
// http: URIs, no Canonical, several CSAF fields, unknown fields) are read against the facts our rules judge them
// by: `expires`, `insecureUris`, `fields`, `unknownFields`, and for CSAF the rule itself.
import { describe, expect, it } from 'vitest';
import { evaluateRule } from '../../../../src/engine/evaluate.ts';
import { checkCleartextSignature } from '../../../../plugins/wellknown/openpgp-signature.ts';
import { parseSecurityTxt, type ParsedSecurityTxt } from '../../../../plugins/wellknown/parse-security-txt.ts';
import { expectAgreement } from '../../suite-agreement.ts';
import { catalogue } from '../../../suite/ruleset.ts';

/** The day the tests are taken to run (the commit's date). */
const TODAY = '2025-12-11';
const inDays = (days: number) =>
  new Date(Date.parse(`${TODAY}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);
const EXPIRES = `Expires: ${inDays(10)}T18:37:07z\n`;

const SIGNED = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA256

# Canonical URI
Canonical: https://example.com/.well-known/security.txt

# Our security address
Contact: mailto:security@example.com

# Our OpenPGP key
Encryption: https://example.com/pgp-key.txt

# Our security policy
Policy: https://example.com/security-policy.html

# Our security acknowledgments page
Acknowledgments: https://example.com/hall-of-fame.html

# CSAF link
CSAF: https://example.com/.well-known/csaf/provider-metadata.json

${EXPIRES}-----BEGIN PGP SIGNATURE-----
Version: GnuPG v2.2

wpwEAQEIABAFAmTHcawJEDs4gPMoG10dAACN5wP/UozhFqHcUWRNhg4KwfY4
HHXU8bf222naeYJHgaHadLTJJ8YQIQ9N5fYF7K4BM0jPZc48aaUPaBdhNxw+
KDtQJWPzVREIbbGLRQ5WNYrLR6/7v1LHTI8RvgY22QZD9EAkFQwgdG8paIP4
2APWewNf8e01t1oh4n5bDBtr4IaQoj0=
=DHXw
-----END PGP SIGNATURE-----
`;
const PREFIX = `${EXPIRES}Contact: mailto:security@example.com\n`;

interface Read {
  parsed: ParsedSecurityTxt;
  /** No parse error, and a signed file's signature block is readable. */
  wellFormed: boolean;
}

async function read(text: string | Uint8Array): Promise<Read> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const parsed = parseSecurityTxt(bytes);
  const readable =
    !parsed.signed ||
    (await checkCleartextSignature(Buffer.from(bytes).toString('utf8'), [], `${TODAY}T00:00:00Z`)).verification !==
      'unreadable';
  return { parsed, wellFormed: parsed.errors.length === 0 && readable };
}

/** The rule that judges the CSAF fields (CSAF 2.0 section 7.1.8), run on the parsed fields. */
const CSAF_RULE = catalogue().rules.find((rule) => rule.id === 'wellknown.security_txt.csaf_provider_metadata')!;
const csafOutcome = (r: Read) =>
  evaluateRule(CSAF_RULE, { wellknown: { security_txt: { published: true, fields: { csaf: r.parsed.fields.csaf } } } })
    .outcome;

const codes = (r: Read) => r.parsed.errors.map((e) => e.code);
const expiresInDays = (r: Read) =>
  r.parsed.expires === null ? null : (Date.parse(r.parsed.expires) - Date.parse(`${TODAY}T00:00:00Z`)) / 86400_000;

/** [test and case, file, whether our facts give sectxt's answer]. */
const CASES: [string, string | Uint8Array, (r: Read) => boolean][] = [
  ['future_expires: long_expiry', 'Expires: 2028-01-01T12:00:00Z\n', (r) => expiresInDays(r)! > 365],
  ['invalid_expires: Nonsense', 'Expires: Nonsense\n', (r) => codes(r)[0] === 'invalid_expires'],
  [
    'invalid_expires: an RFC 5322 date',
    'Expires: Thu, 15 Sep 2022 06:03:46 -0700\n',
    (r) => codes(r)[0] === 'invalid_expires',
  ],
  ['expired', 'Expires: 2020-01-01T12:00:00Z\n', (r) => expiresInDays(r)! < 0],
  ['long_expiry: a comment line', 'Expires: 2030-01-01T12:00:00Z\n# Wow', (r) => r.parsed.errors.length === 0],
  ['preferred_languages: English', `${PREFIX}Preferred-Languages: English`, (r) => !r.wellFormed],
  ['preferred_languages: nl, Invalid', `${PREFIX}Preferred-Languages: nl, Invalid`, (r) => !r.wellFormed],
  ['preferred_languages: En, dUT', `${PREFIX}Preferred-Languages: En, dUT`, (r) => r.wellFormed],
  ['prec_ws', 'Contact : mailto:me@example.com\n# Wow', (r) => r.parsed.errors[0]?.line === 1],
  ['empty_key', ': mailto:me@example.com\n# Wow', (r) => r.parsed.errors[0]?.line === 1],
  ['empty_key2', ' : mailto:me@example.com\n# Wow', (r) => r.parsed.errors[0]?.line === 1],
  ['missing_space', 'Contact:mailto:me@example.com\n# Wow', (r) => codes(r)[0] === 'missing_space'],
  ['missing_value', 'Contact: \n# Wow', (r) => codes(r)[0] === 'empty_value'],
  [
    'no_https',
    'Contact: http://example.com/contact\n# Wow',
    (r) => r.parsed.insecureUris.includes('http://example.com/contact'),
  ],
  ['no_uri', 'Contact: me@example.com\n# Wow', (r) => codes(r)[0] === 'invalid_uri'],
  ['signed', SIGNED, (r) => r.wellFormed],
  [
    'signed_invalid_pgp: no signature header',
    SIGNED.replace('-----BEGIN PGP SIGNATURE-----', ''),
    (r) => !r.wellFormed,
  ],
  [
    'signed_invalid_pgp: a dash-escaped line in the signature',
    SIGNED.replace('-----BEGIN PGP SIGNATURE-----', '-----BEGIN PGP SIGNATURE-----\n- \n'),
    (r) => !r.wellFormed,
  ],
  [
    'signed_invalid_pgp: broken base64',
    SIGNED.replace('wpwEAQEIABAFAmTHcawJEDs4gPMoG10dAACN5wP/UozhFqHcUWRNhg4KwfY4', 'wpwEAQEIABAFAmTH').replace(
      'HHXU8bf222naeYJHgaHadLTJJ8YQIQ9N5fYF7K4BM0jPZc48aaUPaBdhNxw+',
      'HHXU8bf222naeYJHga',
    ),
    (r) => !r.wellFormed,
  ],
  [
    'signed_no_canonical',
    SIGNED.replace('Canonical: https://example.com/.well-known/security.txt', ''),
    (r) => r.parsed.fields.canonical.length === 0,
  ],
  ['signed_dash_escaped', SIGNED.replace('Expires', '- Expires'), (r) => r.wellFormed],
  ['pgp_signed_formatting', `\r\n${SIGNED}`, (r) => !r.wellFormed],
  [
    'unknown_fields',
    `${PREFIX}Last-updated: {date.today().isoformat()}T12:00:00z\nUnknown: value\nEncryption: https://example.com/pgp-key.txt\n`,
    (r) => r.wellFormed && r.parsed.unknownFields.length === 2,
  ],
  [
    'no_line_separators: one line',
    `Contact: mailto:security@example.com  Expires: ${inDays(10)}T18:37:07z  # All on a single line`,
    (r) => !r.wellFormed,
  ],
  [
    'no_line_separators: the fourth line',
    'line 1\nline 2\nline 3\nContact: mailto:security@example.com  Expires',
    (r) => !r.wellFormed && r.parsed.errors.some((e) => e.line === 4),
  ],
  [
    'csaf_https_uri',
    SIGNED.replace('CSAF: https://', 'CSAF: http://'),
    (r) => r.parsed.insecureUris.includes('http://example.com/.well-known/csaf/provider-metadata.json'),
  ],
  [
    'csaf_provider_file',
    SIGNED.replace('csaf/provider-metadata.json', 'csaf/other_provider_name.json'),
    (r) => csafOutcome(r) === 'fail',
  ],
  [
    'multiple_csaf_notification',
    SIGNED.replace('# CSAF link', '# CSAF link\nCSAF: https://example2.com/.well-known/csaf/provider-metadata.json'),
    (r) => r.wellFormed && r.parsed.fields.csaf.length === 2 && csafOutcome(r) === 'pass',
  ],
  [
    'multiple_signed_messages',
    SIGNED.replace('-----BEGIN PGP SIGNATURE-----', '-----BEGIN PGP SIGNATURE-----\n-----BEGIN PGP SIGNATURE-----'),
    (r) => !r.wellFormed,
  ],
  [
    'contact_field_properties',
    SIGNED.replace(
      'Contact: mailto:security@example.com',
      [
        'Contact: mailto:security@example.com',
        'Contact: mailto:security%2Buri%2Bencoded@example.com',
        'Contact: mailto:not_a_valid_email',
        'Contact: tel:+1-201-555-0123',
        'Contact: https://example.com/security-contact.html',
      ].join('\n'),
    ),
    (r) => r.wellFormed && r.parsed.fields.contact.length === 5,
  ],
  [
    'byte_order_mark_parser: two byte order marks',
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]),
      Buffer.from(`Contact: mailto:me@example.com\n${EXPIRES}`),
    ]),
    (r) => !r.wellFormed,
  ],
  ['too_many_final_newlines_signed', `${SIGNED}\n`, (r) => !r.wellFormed],
];

/**
 * Judged disagreement, where sectxt accepts what RFC 5646 does not:
 * - `dUT` in `En, dUT`: sectxt asks langcodes' `tag_is_valid`, which first replaces a tag by its CLDR alias (`dut`,
 *   the ISO 639-2/B code for Dutch, becomes `nl`) and then checks the replacement. RFC 5646 section 2.2.1 registers
 *   only the ISO 639-1 code of a language that has one, and no ISO 639-2/B code at all, so `dut` is not in the IANA
 *   Language Subtag Registry and the tag is not valid (section 2.2.9). The parser names `dUT`; `En` is valid (case
 *   does not matter, section 2.1.1), which is what the case tests.
 */
const JUDGED: Record<string, string> = {
  'preferred_languages: En, dUT': 'dut is an ISO 639-2/B alias, not a registered subtag (RFC 5646 section 2.2.1)',
};

describe('security.txt against sectxt (test_sectxt.py)', async () => {
  const outcomes = await Promise.all(
    CASES.map(async ([id, file, agrees]) => ({ id, agrees: agrees(await read(file)) })),
  );

  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  // 31 of 32 (96.9 %): the one judged case is sectxt reading an alias as the code it stands for; the floor is one
  // case under 97 % of 32 (issue 14).
  it('agrees on every case but the judged one', () => {
    expectAgreement('sectxt', outcomes, JUDGED, 0.96);
  });

  it('names the subtags the registry lacks', async () => {
    const subtags = async (file: string) => (await read(file)).parsed.errors.map((e) => [e.code, e.subtag]);
    expect(await subtags(`${PREFIX}Preferred-Languages: English`)).toEqual([
      ['unregistered_language_subtag', 'English'],
    ]);
    expect(await subtags(`${PREFIX}Preferred-Languages: nl, Invalid`)).toEqual([
      ['unregistered_language_subtag', 'Invalid'],
    ]);
  });
});
