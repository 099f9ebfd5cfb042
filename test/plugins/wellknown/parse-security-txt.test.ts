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
    expect(p.unknownFields).toEqual(['x-custom']);
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
    expect(bad.errors).toEqual([{ line: 2, code: 'invalid_expires' }]);
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

  it('reports lines that are not fields', () => {
    const p = parseSecurityTxt(bytes('Contact mailto:a@b.test\nPolicy:\n'));
    expect(p.errors).toEqual([
      { line: 1, code: 'missing_separator' },
      { line: 2, code: 'empty_value' },
    ]);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (s) => void parseSecurityTxt(bytes(s))));
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
});
