import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseHsts } from '../../../plugins/http/parse-hsts.ts';

describe('parseHsts', () => {
  it('reads max-age, includeSubDomains and preload case-insensitively', () => {
    const h = parseHsts('Max-Age=63072000; INCLUDESUBDOMAINS; preload');
    expect(h).toMatchObject({ count: 1, max_age: 63072000, include_subdomains: true, preload: true, parse_errors: [] });
  });

  it('accepts a quoted max-age', () => {
    expect(parseHsts('max-age="31536000"').max_age).toBe(31536000);
  });

  it('reports no header as zero values', () => {
    expect(parseHsts(null)).toEqual({
      values: [],
      count: 0,
      max_age: null,
      include_subdomains: false,
      preload: false,
      duplicate_directives: [],
      parse_errors: [],
    });
  });

  it('counts comma-joined repeated headers and reads only the first', () => {
    const h = parseHsts('max-age=86400, max-age=63072000; includeSubDomains');
    expect(h.count).toBe(2);
    expect(h.max_age).toBe(86400);
    expect(h.include_subdomains).toBe(false);
  });

  it('flags a repeated directive, which makes browsers ignore the header', () => {
    const h = parseHsts('max-age=600; max-age=700');
    expect(h.duplicate_directives).toEqual(['max-age']);
    expect(h.parse_errors).toContain('directive repeated: max-age');
  });

  it('flags a missing or non-numeric max-age', () => {
    expect(parseHsts('includeSubDomains').parse_errors).toEqual(['max-age is missing']);
    expect(parseHsts('max-age=forever').parse_errors[0]).toMatch(/not a number/);
    expect(parseHsts('max-age=forever').max_age).toBeNull();
  });

  it('never throws and keeps count equal to the number of values', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const h = parseHsts(s);
        expect(h.count).toBe(h.values.length);
      }),
    );
  });
});
