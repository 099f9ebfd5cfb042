import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseServer } from '../../../plugins/http/parse-server.ts';

const tchar = fc.constantFrom(..."!#$%&'*+.^_`|~09azAZ-".split(''));
const token = fc.string({ unit: tchar, minLength: 1, maxLength: 10 });
const ctext = fc.string({ unit: fc.constantFrom('a', ' ', '1', ';', '/', '.', '\\)'), maxLength: 10 });

describe('Server (RFC 9110 section 10.2.4)', () => {
  it('reads the RFC example', () => {
    expect(parseServer('CERN/3.0 libwww/2.17')).toEqual({
      raw: 'CERN/3.0 libwww/2.17',
      products: [
        { name: 'CERN', version: '3.0' },
        { name: 'libwww', version: '2.17' },
      ],
      comments: [],
      parse_error: null,
    });
  });

  it('reads generated products and comments, versions only after "/"', () => {
    const element = fc.oneof(
      fc
        .record({ name: token, version: fc.option(token) })
        .map((p) => ({ text: p.version === null ? p.name : `${p.name}/${p.version}`, product: p })),
      ctext.map((c) => ({ text: `(${c} (nested))`, product: null })),
    );
    fc.assert(
      fc.property(
        fc.record({ name: token, version: fc.option(token) }),
        fc.array(element, { maxLength: 4 }),
        fc.constantFrom(' ', '\t', '  '),
        (first, rest, rws) => {
          const text = [
            first.version === null ? first.name : `${first.name}/${first.version}`,
            ...rest.map((e) => e.text),
          ].join(rws);
          const s = parseServer(text);
          expect(s.parse_error).toBeNull();
          expect(s.products).toEqual([first, ...rest.flatMap((e) => (e.product === null ? [] : [e.product]))]);
          expect(s.comments.length).toBe(rest.filter((e) => e.product === null).length);
        },
      ),
    );
  });

  it('does not take digits in a name or a comment for a version', () => {
    expect(parseServer('AmazonS3').products).toEqual([{ name: 'AmazonS3', version: null }]);
    expect(parseServer('nginx (Ubuntu 22.04)')).toMatchObject({
      products: [{ name: 'nginx', version: null }],
      comments: ['Ubuntu 22.04'],
    });
    expect(parseServer('Apache/2.4.41 (Ubuntu)').products).toEqual([{ name: 'Apache', version: '2.4.41' }]);
  });

  it.each([
    ['Apache/', 'product-version'],
    ['Apache/2.4(Unix)', 'RWS'],
    ['Apache (Unix', 'comment'],
    ['"Apache"', 'product'],
    ['Apache (a\x01b)', 'ctext'],
  ])('refuses %s, naming %s, and keeps what came before', (text, production) => {
    const s = parseServer(text);
    expect(s.parse_error).toMatch(new RegExp(`^${production}:`));
  });

  it('keeps the products read before an error', () => {
    const partial = parseServer('nginx/1.25 "x"');
    expect(partial.products).toEqual([{ name: 'nginx', version: '1.25' }]);
    expect(partial.parse_error).toMatch(/^product:/);
    expect(parseServer(null)).toEqual({ raw: null, products: [], comments: [], parse_error: null });
  });
});
