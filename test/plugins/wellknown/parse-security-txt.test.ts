import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSecurityTxt, rfc3339ToIso } from '../../../plugins/wellknown/parse-security-txt.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

// Close to the example of RFC 9116 section 2.
const EXAMPLE = `# Our security address
Contact: mailto:security@example.test
Contact: https://example.test/security-contact.html
Expires: 2030-01-01T00:00:00.000Z
Encryption: https://example.test/pgp-key.txt
Preferred-Languages: en, fr
Canonical: https://example.test/.well-known/security.txt
Policy: http://example.test/security-policy.html
X-Custom: something
`;

describe('parseSecurityTxt', () => {
  it('reads the fields of an RFC 9116 file', () => {
    const p = parseSecurityTxt(bytes(EXAMPLE));
    expect(p.signed).toBe(false);
    expect(p.signatureComplete).toBeNull();
    expect(p.fields.contact).toEqual(['mailto:security@example.test', 'https://example.test/security-contact.html']);
    expect(p.fields['preferred-languages']).toEqual(['en, fr']);
    expect(p.expires).toBe('2030-01-01T00:00:00.000Z');
    expect(p.unknownFields).toEqual(['X-Custom']);
    expect(p.insecureUris).toEqual(['http://example.test/security-policy.html']);
    expect(p.errors).toEqual([]);
  });

  it('matches field names case-insensitively', () => {
    expect(parseSecurityTxt(bytes('CONTACT: mailto:a@b.test\nexpires: 2030-01-01T00:00:00Z\n')).fields.contact).toEqual(
      ['mailto:a@b.test'],
    );
  });

  it('leaves expires null when there are two, and reports an invalid date', () => {
    const two = parseSecurityTxt(bytes('Expires: 2030-01-01T00:00:00Z\nExpires: 2031-01-01T00:00:00Z\n'));
    expect(two.fields.expires).toHaveLength(2);
    expect(two.expires).toBeNull();
    const bad = parseSecurityTxt(bytes('Contact: mailto:a@b.test\nExpires: next year\n'));
    expect(bad.expires).toBeNull();
    expect(bad.errors).toEqual([
      { line: 2, code: 'invalid_expires', production: 'date-time', value: 'Expires: next year' },
    ]);
  });

  it('reads an OpenPGP cleartext-signed file', () => {
    const signed = [
      '-----BEGIN PGP SIGNED MESSAGE-----',
      'Hash: SHA256',
      '',
      'Contact: mailto:security@example.test',
      '- Expires: 2030-01-01T00:00:00Z',
      '-----BEGIN PGP SIGNATURE-----',
      '',
      'iQIzBAEBCAAdFiEE',
      '-----END PGP SIGNATURE-----',
      '',
    ].join('\n');
    const p = parseSecurityTxt(bytes(signed));
    expect(p.signed).toBe(true);
    expect(p.signatureComplete).toBe(true);
    expect(p.fields.contact).toEqual(['mailto:security@example.test']);
    expect(p.expires).toBe('2030-01-01T00:00:00.000Z');
    const cut = parseSecurityTxt(bytes(signed.split('-----BEGIN PGP SIGNATURE-----')[0]!));
    expect(cut.signatureComplete).toBe(false);
    expect(cut.errors.map((e) => e.code)).toEqual(['unterminated_signature']);
  });

  it('refuses anything after the signature block, a blank line included (signed ends with sign-footer)', () => {
    const signed = [
      '-----BEGIN PGP SIGNED MESSAGE-----',
      'Hash: SHA256',
      '',
      'Contact: mailto:security@example.test',
      '-----BEGIN PGP SIGNATURE-----',
      '',
      'iQIzBAEBCAAdFiEE',
      '-----END PGP SIGNATURE-----',
    ];
    expect(parseSecurityTxt(bytes(signed.join('\n'))).errors).toEqual([]);
    expect(parseSecurityTxt(bytes(`${signed.join('\r\n')}\r\n`)).errors).toEqual([]);
    for (const tail of ['\n\n', '\nContact: mailto:other@example.test\n', '\n# comment\n']) {
      const p = parseSecurityTxt(bytes(signed.join('\n') + tail));
      expect(p.errors).toMatchObject([{ line: 9, code: 'text_after_signature', production: 'sign-footer' }]);
      expect(p.fields.contact).toEqual(['mailto:security@example.test']);
    }
  });

  it('reports lines that are not fields', () => {
    const p = parseSecurityTxt(bytes('Contact security team\nContact mailto:a@b.test\nPolicy:\n'));
    expect(p.errors).toEqual([
      { line: 1, code: 'missing_separator', production: 'fs', value: 'Contact security team' },
      // The first colon is the URI's, so the name before it holds a space.
      { line: 2, code: 'invalid_field_name', production: 'field-name', value: 'Contact mailto:a@b.test' },
      { line: 3, code: 'empty_value', production: 'unstructured', value: 'Policy:' },
    ]);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (s) => void parseSecurityTxt(bytes(s))));
  });

  it('reports a field outside the registry as written, a misspelt Acknowledgements among them', () => {
    const p = parseSecurityTxt(bytes('Contact: mailto:a@b.test\nAcknowledgements: https://b.test/thanks\n'));
    expect(p.unknownFields).toEqual(['Acknowledgements']);
    expect(p.fields.acknowledgments).toEqual([]);
  });
});

// RFC 9116 section 2.5: the examples of each field, verbatim.
const RFC_9116_FIELD_EXAMPLES = [
  'Acknowledgments: https://example.com/hall-of-fame.html',
  'Canonical: https://www.example.com/.well-known/security.txt',
  'Canonical: https://someserver.example.com/.well-known/security.txt',
  'Contact: mailto:security@example.com',
  'Contact: tel:+1-201-555-0123',
  'Contact: https://example.com/security-contact.html',
  'Encryption: https://example.com/pgp-key.txt',
  'Encryption: dns:5d2d37ab76d47d36._openpgpkey.example.com?type=OPENPGPKEY',
  'Encryption: openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f',
  'Expires: 2021-12-31T18:37:07.000Z',
  'Hiring: https://example.com/jobs.html',
  'Policy: https://example.com/disclosure.html',
  'Preferred-Languages: en, es, fr',
];

// RFC 9116 section 4, as generators of valid lines.
const scheme = fc.constantFrom('https', 'mailto', 'tel', 'dns', 'openpgp4fpr');
const uri = fc
  .tuple(scheme, fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), fc.stringMatching(/^(\/[A-Za-z0-9._~-]{0,8}){0,3}$/))
  .map(([s, host, path]) => (s === 'https' ? `https://${host}.example${path}` : `${s}:${host}`));
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const dateTime = fc
  .tuple(
    fc.integer({ min: 2000, max: 2099 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
    two(23),
    two(59),
    two(59),
  )
  .chain(([y, mo, d, h, mi, s]) =>
    fc
      .constantFrom('Z', 'z', '+02:00', '-05:30')
      .map((zone) => `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${h}:${mi}:${s}${zone}`),
  );
/** Each letter upper- or lower-case: subtags are case-insensitive (RFC 5646 section 2.1.1). */
const anyCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
/** langtag = language ["-" script] ["-" region] *("-" variant) (RFC 5646 section 2.1), every subtag a registered
 * one (section 2.2.9), private-use ranges included; plus private use and grandfathered tags. */
const langTag = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('en', 'fr', 'de', 'zh', 'sr', 'nl', 'ast', 'gsw', 'qaa'),
      fc.option(fc.constantFrom('Latn', 'Cyrl', 'Hant', 'Qaab'), { nil: null }),
      fc.option(fc.constantFrom('US', 'CH', 'TW', '419', 'QM', 'XA'), { nil: null }),
      fc.option(fc.constantFrom('fonipa', '1996', 'oxendict'), { nil: null }),
    )
    .chain((parts) => anyCase(parts.filter((p) => p !== null).join('-'))),
  fc.constantFrom('x-private', 'i-klingon', 'en-GB-oxendict', 'zh-yue-HK', 'de-CH-x-phonebk', 'en-a-bbb-x-a-ccc'),
);
const langValues = fc
  .array(fc.tuple(langTag, fc.constantFrom('', ' ', '\t')), { minLength: 1, maxLength: 4 })
  .map((tags) => tags.map(([t, w], i) => (i === 0 ? t : `${w},${w}${t}`)).join(''));
const field = fc.oneof(
  fc.tuple(fc.constantFrom('Contact', 'Acknowledgments', 'Canonical', 'Encryption', 'Hiring', 'Policy', 'CSAF'), uri),
  fc.tuple(fc.constant('Expires'), dateTime),
  fc.tuple(fc.constant('Preferred-Languages'), langValues),
);

describe('parseSecurityTxt against the RFC 9116 grammar', () => {
  it.each(RFC_9116_FIELD_EXAMPLES)('reads the specification example %s', (line) => {
    const p = parseSecurityTxt(bytes(line + '\n'));
    expect(p.errors).toEqual([]);
    const [name, value] = [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)];
    expect(p.fields[name as 'contact']).toEqual([value]);
  });

  it('parses every file the ABNF generates, with each value as written', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (fields, eol) => {
        const p = parseSecurityTxt(bytes(fields.map(([n, v]) => `${n}: ${v}`).join(eol) + eol));
        expect(p.errors).toEqual([]);
        for (const [n, v] of fields) expect(p.fields[n.toLowerCase() as 'contact']).toContain(v);
      }),
    );
  });

  // Each mutation breaks one production; the error names it.
  const mutations: [string, (name: string, value: string) => string, string][] = [
    // Without its colon the line's first colon (if any) is the value's, and the name before it holds a space.
    ['drops the colon', (n, v) => `${n} ${v}`, 'fs or field-name'],
    ['drops the space after the colon', (n, v) => `${n}:${v}`, 'SP'],
    ['puts a space inside the field name', (n, v) => `${n} x: ${v}`, 'field-name'],
    ['leaves the value empty', (n) => `${n}: `, 'unstructured'],
  ];
  it.each(mutations)('refuses a line that %s, naming the production', (_name, mutate, production) => {
    fc.assert(
      fc.property(field, ([n, v]) => {
        const p = parseSecurityTxt(bytes(mutate(n, v) + '\n'));
        const expected = production === 'fs or field-name' ? (v.includes(':') ? 'field-name' : 'fs') : production;
        expect(p.errors.map((e) => e.production)).toEqual([expected]);
      }),
    );
  });

  const valueMutations: [string, string, string][] = [
    ['Contact', 'security@example.com', 'uri'],
    ['Contact', 'https://example.com/a b', 'uri'],
    ['Policy', 'example.com/policy', 'uri'],
    ['Expires', '2030-01-01 00:00:00Z', 'date-time'],
    ['Expires', '2030-01-01T00:00:00', 'date-time'],
    ['Expires', 'Tue, 31 Dec 2030 00:00:00 GMT', 'date-time'],
    ['Preferred-Languages', 'en_US', 'lang-tag'],
    ['Preferred-Languages', 'en; fr', 'lang-tag'],
    ['Preferred-Languages', 'en,,fr', 'lang-tag'],
    ['Preferred-Languages', 'e', 'lang-tag'],
    ['Preferred-Languages', 'en-', 'lang-tag'],
  ];
  it.each(valueMutations)('refuses %s: %s, naming %s', (name, value, production) => {
    expect(parseSecurityTxt(bytes(`${name}: ${value}\n`)).errors.map((e) => e.production)).toEqual([production]);
  });

  // Well-formed but not valid (RFC 5646 section 2.2.9): a subtag the IANA registry lacks, named as written.
  it('names a subtag the registry lacks in a tag that is otherwise valid', () => {
    const unregistered = fc.oneof(
      fc.stringMatching(/^[a-z]{5,8}$/).map((s) => [s, s] as const), // no 5-8 letter language is registered
      fc.constantFrom(['en-ZQ', 'ZQ'], ['sr-Abcd', 'Abcd'], ['de-CH-1234', '1234'], ['nld', 'nld'], ['dUT', 'dUT']),
    );
    fc.assert(
      fc.property(langValues, unregistered, (valid, [tag, subtag]) => {
        const p = parseSecurityTxt(bytes(`Preferred-Languages: ${valid}, ${tag}\n`));
        expect(p.errors.map((e) => [e.code, e.production, e.subtag])).toEqual([
          ['unregistered_language_subtag', 'lang-tag', subtag],
        ]);
        expect(p.fields['preferred-languages']).toEqual([`${valid}, ${tag}`]);
      }),
    );
  });

  // The registry's first record (Afar, "aa", at position 0) is registered like any other.
  it('finds every subtag the registry lists, its first record included', () => {
    const p = parseSecurityTxt(bytes('Preferred-Languages: aa, aa-ET, en-Latn-US, zza, de-CH-1996\n'));
    expect(p.errors).toEqual([]);
  });
});

describe('rfc3339ToIso', () => {
  it('accepts RFC 3339 date-times and normalises them to UTC', () => {
    expect(rfc3339ToIso('2030-01-01T02:00:00+02:00')).toBe('2030-01-01T00:00:00.000Z');
    expect(rfc3339ToIso('2030-06-30t12:00:00.5z')).toBe('2030-06-30T12:00:00.500Z');
  });
  it('refuses dates without time or zone, and impossible dates', () => {
    expect(rfc3339ToIso('2030-01-01')).toBeNull();
    expect(rfc3339ToIso('2030-01-01T00:00:00')).toBeNull();
    expect(rfc3339ToIso('2030-02-31T00:00:00Z')).toBeNull();
    expect(rfc3339ToIso('2030-13-01T00:00:00Z')).toBeNull();
  });
  it('reads a space for the T only when asked, as section 5.6 lets applications write it', () => {
    expect(rfc3339ToIso('2030-01-01 02:00:00+02:00')).toBeNull();
    expect(rfc3339ToIso('2030-01-01 02:00:00+02:00', true)).toBe('2030-01-01T00:00:00.000Z');
    expect(rfc3339ToIso('2030-01-01  02:00:00Z', true)).toBeNull();
  });
});

describe('Expires written with a space', () => {
  const p = parseSecurityTxt(bytes('Contact: mailto:security@example.com\nExpires: 2030-01-01 00:00:00+00:00\n'));
  it('gives the date the file means, so the required rules judge its expiry', () => {
    expect(p.expires).toBe('2030-01-01T00:00:00.000Z');
  });
  it('is still reported against the strict grammar, for the recommended rule', () => {
    expect(p.errors.map((e) => e.code)).toEqual(['invalid_expires']);
  });
});
