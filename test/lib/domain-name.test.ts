import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError, normaliseDomain } from '../../src/lib/domain-name.ts';

const refused = (input: unknown, extra: string[] = []) => {
  try {
    normaliseDomain(input, extra);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).code;
  }
  return null;
};

describe('normaliseDomain', () => {
  it.each([
    ['Example.COM', 'example.com', 'example.com'],
    ['example.com.', 'example.com', 'example.com'],
    ['  www.example.co.uk ', 'www.example.co.uk', 'example.co.uk'],
    ['bücher.de', 'xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['user.github.io', 'user.github.io', 'user.github.io'],
    ['example.com\u3002', 'example.com', 'example.com'],
    ['Example\uff0ecom\uff0e', 'example.com', 'example.com'],
  ])('normalises %j to %s', (input, ascii, registrable) => {
    expect(normaliseDomain(input)).toMatchObject({ ascii, registrable });
  });

  it.each([
    ['', 'empty'],
    [42, 'empty'],
    ['https://example.com', 'scheme'],
    ['example.com/path', 'path'],
    ['example.com?q', 'path'],
    ['example.com:8443', 'port'],
    ['127.0.0.1', 'ip_literal'],
    ['[::1]', 'ip_literal'],
    ['::1', 'ip_literal'],
    ['2130706433', 'ip_literal'],
    ['0x7f.1', 'ip_literal'],
    ['0177.0.0.1', 'ip_literal'],
    ['\uff11\uff12\uff17.\uff10.\uff10.\uff11', 'ip_literal'],
    ['xn--a.com', 'characters'],
    ['example.com..', 'label'],
    ['exa mple.com', 'characters'],
    ['user@example.com', 'characters'],
    ['-bad.example.com', 'label'],
    ['bad-.example.com', 'label'],
    ['under_score.example.com', 'label'],
    ['ab--cd.example.com', 'label'],
    [`${'a'.repeat(64)}.com`, 'label'],
    [`${'abcdefghi.'.repeat(26)}com`, 'too_long'],
    ['localhost', 'no_public_suffix'],
    ['com', 'no_public_suffix'],
    ['co.uk', 'no_public_suffix'],
    ['example.test', 'no_public_suffix'],
    ['example.invalidtld', 'no_public_suffix'],
  ])('refuses %j (%s)', (input, code) => {
    expect(refused(input)).toBe(code);
  });

  it('accepts extra suffixes from configuration only', () => {
    expect(normaliseDomain('good.test', ['test'])).toMatchObject({ ascii: 'good.test', registrable: 'good.test' });
    expect(normaliseDomain('www.good.test', ['test']).registrable).toBe('good.test');
    expect(refused('test', ['test'])).toBe('no_public_suffix');
  });

  it('either refuses with a DomainError or gives an idempotent LDH name of at most 253 characters', () => {
    const alphabet = fc.constantFrom(
      ...'abcxyz019-._:/@ ÄéüßЖ中-'.split(''),
      'xn--',
      '.com',
      '.co.uk',
      'https://',
      '[',
      ']',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.domain(),
          fc.webUrl(),
          fc.ipV4(),
          fc.ipV6(),
          fc.string(),
          fc.array(alphabet).map((a) => a.join('')),
        ),
        (input) => {
          let out;
          try {
            out = normaliseDomain(input);
          } catch (err) {
            expect(err).toBeInstanceOf(DomainError);
            return;
          }
          expect(out.ascii).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
          expect(out.ascii.length).toBeLessThanOrEqual(253);
          expect(normaliseDomain(out.ascii)).toEqual(out);
          expect(normaliseDomain(out.unicode).ascii).toBe(out.ascii);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
