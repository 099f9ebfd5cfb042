import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseHsts } from '../../../plugins/http/parse-hsts.ts';

/** Characters a token may hold (RFC 9110 section 5.6.2). */
const tchar = fc.constantFrom(..."!#$%&'*+.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-");
const token = fc.string({ unit: tchar, minLength: 1, maxLength: 12 });
const ows = fc.constantFrom('', ' ', '\t', '  ');
const qdtext = fc.constantFrom(...'abc ;,=-/'.split(''), '\\"', '\\\\');
const quoted = fc.string({ unit: qdtext, maxLength: 10 }).map((s) => `"${s}"`);
const digits = fc.nat({ max: 10 ** 9 });

/** Casings of a directive name: names are case-insensitive. */
const casing = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((up) => [...name].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

/** An extension directive with a name other than the three we know. */
const extension = fc
  .record({ name: token, value: fc.option(fc.oneof(token, quoted)) })
  .filter(({ name }) => !['max-age', 'includesubdomains', 'preload'].includes(name.toLowerCase()))
  .map(({ name, value }) => (value === null ? name : `${name}=${value}`));

/** A valid header per RFC 6797 section 6.1, with the values it must parse to. */
const validHeader = fc
  .record({
    maxAge: digits,
    quotedMaxAge: fc.boolean(),
    maxAgeName: casing('max-age'),
    sub: fc.option(casing('includeSubDomains')),
    preload: fc.boolean(),
    extensions: fc.uniqueArray(extension, { maxLength: 3, selector: (e) => e.split('=')[0]!.toLowerCase() }),
    seps: fc.array(ows, { minLength: 12, maxLength: 12 }),
    order: fc.nat(),
  })
  .map((r) => {
    const value = r.quotedMaxAge ? `"${r.maxAge}"` : String(r.maxAge);
    const directives = [`${r.maxAgeName}${r.seps[0]}=${r.seps[1]}${value}`, ...r.extensions];
    if (r.sub !== null) directives.push(r.sub);
    if (r.preload) directives.push('preload');
    const rotated = [
      ...directives.slice(r.order % directives.length),
      ...directives.slice(0, r.order % directives.length),
    ];
    const text = rotated.map((d, i) => `${r.seps[i + 2] ?? ''}${d}`).join(`${r.seps[11]};`);
    return { text, maxAge: r.maxAge, sub: r.sub !== null, preload: r.preload };
  });

describe('parseHsts: the examples of RFC 6797 section 6.2', () => {
  it.each([
    ['max-age=31536000', 31536000, false],
    ['max-age=15768000 ; includeSubDomains', 15768000, true],
    ['max-age="31536000"', 31536000, false],
    ['max-age=0', 0, false],
    ['max-age=0; includeSubDomains', 0, true],
  ])('%s', (text, maxAge, sub) => {
    expect(parseHsts([text])).toMatchObject({
      valid: true,
      max_age: maxAge,
      include_subdomains: sub,
      parse_errors: [],
    });
  });
});

describe('parseHsts: valid headers generated from the grammar', () => {
  it('parse with the values written', () => {
    fc.assert(
      fc.property(validHeader, ({ text, maxAge, sub, preload }) => {
        const h = parseHsts([text]);
        expect(h.parse_errors).toEqual([]);
        expect(h).toMatchObject({ valid: true, count: 1, max_age: maxAge, include_subdomains: sub, preload });
      }),
    );
  });

  it('keep a quoted value that holds ";" and "," in one directive', () => {
    const h = parseHsts(['animal="squirrel; distinguished, grey"; max-age=123; includeSubDomains']);
    expect(h).toMatchObject({ valid: true, count: 1, max_age: 123, include_subdomains: true });
  });

  it('ignore empty directives between semicolons', () => {
    expect(parseHsts([';; max-age=123 ;; includeSubDomains;']).max_age).toBe(123);
  });
});

/** Mutations of a valid header that each break one production, and the production the error must name. */
const MUTATIONS: [string, (base: string) => string, string][] = [
  ['directive-name', (b) => `${b}; "quoted"`, 'directive-name'],
  ['directive-name (empty before "=")', (b) => `${b}; =2`, 'directive-name'],
  ['directive-value (non-token)', (b) => `${b}; unknown=non@token`, 'directive'],
  ['directive-value (empty)', (b) => `${b}; unknown=`, 'directive-value'],
  ['directive-value (unclosed quote)', (b) => `${b}; unknown="open`, 'directive-value'],
  ['directive separator', (b) => `${b} includeSubDomains`, 'directive'],
  ['directive separator (a comma)', (b) => `${b}, includeSubDomains`, 'directive'],
  ['unique directives (max-age)', (b) => `${b}; MAX-AGE=5`, 'directive'],
  ['unique directives (includeSubDomains)', (b) => `${b}; includeSubDomains; includesubdomains`, 'directive'],
  ['delta-seconds', (b) => b.replace(/max-age=\d+/, 'max-age=1.5'), 'max-age'],
  ['delta-seconds (sign)', (b) => b.replace(/max-age=\d+/, 'max-age=-1'), 'max-age'],
  ['max-age required', (b) => b.replace(/max-age=\d+;?/, 'foo'), 'max-age'],
  ['includeSubDomains takes no value', (b) => `${b}; includeSubDomains=true`, 'includeSubDomains'],
];

describe('parseHsts: mutations that break one production are refused, naming it', () => {
  it.each(MUTATIONS)('%s', (_name, mutate, production) => {
    fc.assert(
      fc.property(digits, (n) => {
        const h = parseHsts([mutate(`max-age=${n}`)]);
        expect(h.valid).toBe(false);
        expect(h.parse_errors.some((e) => e.startsWith(`${production}:`))).toBe(true);
        // The UA ignores the whole header: nothing is in force.
        expect([h.max_age, h.include_subdomains, h.preload]).toEqual([null, false, false]);
      }),
      { numRuns: 20 },
    );
  });
});

describe('parseHsts: headers sent and repeated', () => {
  it('reports no header as nothing sent', () => {
    expect(parseHsts(null)).toEqual({
      values: [],
      count: 0,
      valid: false,
      max_age: null,
      include_subdomains: false,
      preload: false,
      duplicate_directives: [],
      parse_errors: [],
    });
  });

  it('counts an empty header as sent, and invalid', () => {
    expect(parseHsts([' '])).toMatchObject({
      count: 1,
      valid: false,
      parse_errors: ['max-age: the required directive is missing'],
    });
  });

  it('reads an obs-fold as a space (RFC 9112 section 5.2), and refuses any other CR or LF', () => {
    expect(parseHsts(['max-age=100;\r\n\tincludeSubDomains'])).toMatchObject({ valid: true, include_subdomains: true });
    expect(parseHsts(['\r\nmax-age=200']).valid).toBe(false);
    expect(parseHsts(['max-age=200;\nincludeSubDomains']).valid).toBe(false);
  });

  it('counts repeated headers and applies only the first (RFC 6797 section 8.1)', () => {
    const h = parseHsts(['max-age=86400', 'max-age=63072000; includeSubDomains']);
    expect(h).toMatchObject({ count: 2, valid: true, max_age: 86400, include_subdomains: false });
    expect(parseHsts(['max-age=x', 'max-age=63072000'])).toMatchObject({ count: 2, valid: false, max_age: null });
  });

  it('refuses a comma inside one header, which is not a list', () => {
    const h = parseHsts(['max-age=86400, max-age=63072000; includeSubDomains']);
    expect(h).toMatchObject({ count: 1, valid: false, max_age: null });
    expect(h.parse_errors[0]).toMatch(/^directive: /);
  });

  it('lists repeated directives', () => {
    expect(parseHsts(['max-age=600; max-age=700']).duplicate_directives).toEqual(['max-age']);
  });

  it('takes preload only as a bare directive', () => {
    expect(parseHsts(['max-age=1; preload']).preload).toBe(true);
    expect(parseHsts(['max-age=1; preload=yes'])).toMatchObject({ valid: true, preload: false });
  });

  it('never throws, and an invalid header never has a max-age in force', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const h = parseHsts([s]);
        expect(h.count).toBe(h.values.length);
        expect(h.valid).toBe(h.parse_errors.length === 0);
        if (!h.valid) expect(h.max_age).toBeNull();
      }),
    );
  });
});
