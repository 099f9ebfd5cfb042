import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  contentTypeOptions,
  frameOptions,
  httpDate,
  parseAltSvc,
  parseCacheControl,
  permissionsPolicy,
  referrerPolicy,
  resourcePolicy,
  structuredToken,
  varyList,
} from '../../../plugins/http/parse-headers.ts';
import { parseContentType } from '../../../src/net/content-type.ts';

const OBSERVED = '2026-03-01T00:00:00.000Z';
const tchar = fc.constantFrom(..."!#$%&'*+.^_`|~09azAZ-".split(''));
const token = fc.string({ unit: tchar, minLength: 1, maxLength: 10 });
const quoted = fc.string({ unit: fc.constantFrom('a', ' ', ',', ';', '=', '\\"'), maxLength: 8 }).map((s) => `"${s}"`);
const ows = fc.constantFrom('', ' ', '\t ');

describe('Content-Type (RFC 9110 section 8.3)', () => {
  it.each([
    'text/html;charset=utf-8',
    'text/html;charset=UTF-8',
    'Text/HTML;Charset="utf-8"',
    'text/html; charset="utf-8"',
  ])('the equivalent forms of section 8.3.1: %s', (text) => {
    expect(parseContentType(text)).toEqual({ mediaType: 'text/html', charset: 'utf-8' });
  });

  it('reads generated media types with parameters, quoted ones holding ";" included', () => {
    const parameter = fc.tuple(token, fc.oneof(token, quoted));
    fc.assert(
      fc.property(token, token, fc.array(parameter, { maxLength: 3 }), ows, (type, subtype, params, sp) => {
        const text = [`${type}/${subtype}`, ...params.map(([n, v]) => `${n}=${v}`)].join(`${sp};${sp}`);
        const first = params.find(([n]) => n.toLowerCase() === 'charset');
        const charset =
          first === undefined ? null : first[1].replace(/^"|"$/g, '').replace(/\\(.)/g, '$1').toLowerCase();
        expect(parseContentType(text)).toEqual({ mediaType: `${type}/${subtype}`.toLowerCase(), charset });
      }),
    );
  });

  it.each(['text/html garbage', 'text', 'text/', '/html', 'text/ html', '"text/html"'])(
    'declares no media type for %s',
    (text) => {
      expect(parseContentType(text).mediaType).toBeNull();
    },
  );

  it('skips a malformed parameter and keeps the first charset', () => {
    expect(parseContentType('text/html; charset; charset=utf-8; charset=latin1')).toEqual({
      mediaType: 'text/html',
      charset: 'utf-8',
    });
    expect(parseContentType('text/plain; a="x;y"; charset="utf-8"')).toEqual({
      mediaType: 'text/plain',
      charset: 'utf-8',
    });
  });
});

describe('Cache-Control (RFC 9111 section 5.2)', () => {
  it('reads the forms the RFC writes', () => {
    expect(parseCacheControl('max-age=5')).toMatchObject({ directives: ['max-age'], max_age: 5, parse_errors: [] });
    expect(parseCacheControl('private, community="UCI"')).toMatchObject({
      directives: ['community', 'private'],
      parse_errors: [],
    });
    // recipients accept the quoted form of an argument (section 5.2)
    expect(parseCacheControl('max-age="60"')?.max_age).toBe(60);
  });

  it('parses generated directive lists, commas inside quoted strings included', () => {
    const directive = fc.tuple(token, fc.option(fc.oneof(token, quoted)));
    fc.assert(
      fc.property(fc.array(directive, { minLength: 1, maxLength: 5 }), ows, (ds, sp) => {
        const text = ds.map(([n, v]) => (v === null ? n : `${n}=${v}`)).join(`${sp},${sp}`);
        const cc = parseCacheControl(text)!;
        expect(cc.parse_errors).toEqual([]);
        expect(cc.directives).toEqual([...new Set(ds.map(([n]) => n.toLowerCase()))].sort());
      }),
    );
  });

  it('refuses a member that breaks cache-directive or delta-seconds, naming it', () => {
    expect(parseCacheControl('public, =5')!.parse_errors[0]).toMatch(/^cache-directive:/);
    expect(parseCacheControl('no-cache="a, max-age=1')!.parse_errors[0]).toMatch(/^cache-directive:/);
    expect(parseCacheControl('max-age=1.5')).toMatchObject({
      max_age: null,
      parse_errors: [expect.stringMatching(/^delta-seconds:/)],
    });
    expect(parseCacheControl('max-age=10, max-age=20')!.max_age).toBe(10); // the first counts (section 4.2.1)
    expect(parseCacheControl(null)).toBeNull();
  });
});

describe('Alt-Svc (RFC 7838 section 3)', () => {
  it.each([
    ['h2="new.example.org:80"', ['h2']],
    ['h2=":8000"', ['h2']],
    ['h2="alt.example.com:8000", h2=":443"', ['h2']],
    ['h2=":443"; ma=3600', ['h2']],
    ['h2=":443"; ma=2592000; persist=1', ['h2']],
    ['clear', []],
  ])('the RFC example %s', (text, protocols) => {
    expect(parseAltSvc(text)).toEqual({ protocols, error: null });
  });

  it('reads generated alt-values, percent-decoding the protocol-id', () => {
    const alt = fc.record({
      id: fc.constantFrom('h3', 'h2', 'h3-29', 'w%3Dx%3Ay'),
      port: fc.nat({ max: 65535 }),
      ma: fc.option(fc.nat()),
    });
    fc.assert(
      fc.property(fc.array(alt, { minLength: 1, maxLength: 4 }), (alts) => {
        const text = alts.map((a) => `${a.id}=":${a.port}"${a.ma === null ? '' : `; ma=${a.ma}`}`).join(', ');
        expect(parseAltSvc(text)).toEqual({
          protocols: [...new Set(alts.map((a) => decodeURIComponent(a.id)))].sort(),
          error: null,
        });
      }),
    );
  });

  it.each([
    ['h3=:443', 'alt-authority'],
    ['h3="example.org"', 'alt-authority'],
    ['=":443"', 'alternative'],
    ['h3=":443" x', 'alt-value'],
    ['h3=":443"; ma', 'parameter'],
  ])('refuses %s whole, naming %s', (text, production) => {
    const r = parseAltSvc(`h2=":443", ${text}`);
    expect(r.protocols).toEqual([]);
    expect(r.error).toMatch(new RegExp(`^${production}:`));
  });
});

describe('HTTP-date (RFC 9110 section 5.6.7)', () => {
  it.each(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'])(
    'the RFC example %s',
    (text) => {
      expect(httpDate(text, OBSERVED)).toBe('1994-11-06T08:49:37.000Z');
    },
  );

  it('reads every generated IMF-fixdate back', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (d) => {
          expect(httpDate(d.toUTCString(), OBSERVED)).toBe(
            new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString(),
          );
        },
      ),
    );
  });

  it('reads a two-digit year as at most 50 years ahead', () => {
    expect(httpDate('Monday, 01-Jan-76 00:00:00 GMT', OBSERVED)).toBe('2076-01-01T00:00:00.000Z');
    expect(httpDate('Monday, 01-Jan-77 00:00:00 GMT', OBSERVED)).toBe('1977-01-01T00:00:00.000Z');
  });

  it.each([
    'yesterday',
    'Sun, 06 Nov 1994 08:49:37',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'sun, 06 Nov 1994 08:49:37 GMT',
    'Sun, 31 Feb 1994 08:49:37 GMT',
    'Sun, 6 Nov 1994 08:49:37 GMT',
  ])('refuses %s (Date.parse would guess)', (text) => {
    expect(httpDate(text, OBSERVED)).toBeNull();
  });
});

describe('Vary (RFC 9110 section 12.5.5)', () => {
  it('reads the RFC example, and lists generated field names lower-cased', () => {
    expect(varyList('accept-encoding, accept-language')).toEqual(['accept-encoding', 'accept-language']);
    fc.assert(
      fc.property(fc.array(fc.oneof(token, fc.constant('*')), { minLength: 1, maxLength: 5 }), (names) => {
        expect(varyList(names.join(', '))).toEqual([...new Set(names.map((n) => n.toLowerCase()))].sort());
      }),
    );
  });

  it('leaves out members that are not field names', () => {
    expect(varyList('Accept, "quoted", a b')).toEqual(['accept']);
  });
});

describe('Referrer-Policy (W3C Referrer Policy sections 4.1 and 8.1)', () => {
  it('applies the last known token, skipping unknown ones (the fallback form of section 11.1)', () => {
    expect(referrerPolicy('no-referrer')).toBe('no-referrer');
    expect(referrerPolicy('no-referrer, strict-origin-when-cross-origin')).toBe('strict-origin-when-cross-origin');
    expect(referrerPolicy('same-origin, made-up')).toBe('same-origin');
    expect(referrerPolicy('made-up')).toBeNull();
  });

  it('sets no policy when the value is not a list of policy tokens', () => {
    expect(referrerPolicy('no-referrer strict-origin')).toBeNull();
    expect(referrerPolicy('"no-referrer"')).toBeNull();
  });
});

describe('Referrer-Policy from its grammar (section 4.1: a list of policy-token, unknown ones skipped)', () => {
  const POLICIES = [
    'no-referrer',
    'no-referrer-when-downgrade',
    'strict-origin',
    'strict-origin-when-cross-origin',
    'same-origin',
    'origin',
    'origin-when-cross-origin',
    'unsafe-url',
  ];
  const policy = fc.oneof(
    fc
      .constantFrom(...POLICIES)
      .chain((p) =>
        fc
          .array(fc.boolean(), { minLength: p.length, maxLength: p.length })
          .map((up) => [...p].map((c, i) => (up[i] ? c.toUpperCase() : c)).join('')),
      ),
    fc.stringMatching(/^x-[a-z]{1,8}$/),
  );

  it('applies the last known policy of every generated list, whatever its case and OWS', () => {
    fc.assert(
      fc.property(fc.array(policy, { minLength: 1, maxLength: 5 }), ows, (tokens, sp) => {
        const known = tokens.map((t) => t.toLowerCase()).filter((t) => POLICIES.includes(t));
        expect(referrerPolicy(tokens.join(`${sp},${sp}`))).toBe(known.at(-1) ?? null);
      }),
    );
  });

  it('sets no policy when one member breaks policy-token', () => {
    const broken = fc.constantFrom('"no-referrer"', 'no referrer', 'origin;q=1', 'same_origin', 'unsafe-url/');
    fc.assert(
      fc.property(fc.array(policy, { maxLength: 4 }), broken, fc.nat(), (tokens, bad, n) => {
        const list = [...tokens];
        list.splice(n % (tokens.length + 1), 0, bad);
        expect(referrerPolicy(list.join(', '))).toBeNull();
      }),
    );
  });
});

describe('Permissions-Policy (Structured Fields dictionary, RFC 9651)', () => {
  it('reads the spec example and refuses the old Feature-Policy syntax', () => {
    expect(permissionsPolicy('geolocation=(self "https://example.com"), camera=()')).toEqual({
      raw: 'geolocation=(self "https://example.com"), camera=()',
      features: ['camera', 'geolocation'],
      parse_error: null,
    });
    const old = permissionsPolicy("geolocation 'none'");
    expect(old.features).toEqual([]);
    expect(old.parse_error).not.toBeNull();
  });
});

describe('Permissions-Policy from its grammar (W3C Permissions Policy section 5.2)', () => {
  const feature = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
  const allowlist = fc.oneof(
    fc.constant('*'),
    fc
      .array(
        fc.oneof(
          fc.constant('self'),
          fc.constant('src'),
          fc.constantFrom('"https://a.example"', '"https://b.test:8443"'),
        ),
        {
          maxLength: 3,
        },
      )
      .map((members) => `(${members.join(' ')})`),
  );

  it('reads the features of every generated dictionary', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(feature, { minLength: 1, maxLength: 5 }),
        fc.array(allowlist, { minLength: 5, maxLength: 5 }),
        (names, lists) => {
          const text = names.map((n, i) => `${n}=${lists[i]}`).join(', ');
          expect(permissionsPolicy(text)).toEqual({ raw: text, features: [...names].sort(), parse_error: null });
        },
      ),
    );
  });

  it('refuses a dictionary with one member that breaks the Structured Fields grammar', () => {
    const broken = fc.constantFrom("camera 'none'", 'camera=(@self)', 'Camera=()', 'camera=(self', 'camera=self;');
    fc.assert(
      fc.property(
        fc.uniqueArray(
          feature.filter((f) => f !== 'camera'),
          { maxLength: 3 },
        ),
        broken,
        (names, bad) => {
          const result = permissionsPolicy([...names.map((n) => `${n}=()`), bad].join(', '));
          expect(result.features).toEqual([]);
          expect(result.parse_error).not.toBeNull();
        },
      ),
    );
  });
});

describe('single-value security headers', () => {
  it('X-Content-Type-Options: the first member, as Fetch reads it', () => {
    expect(contentTypeOptions('nosniff')).toBe('nosniff');
    expect(contentTypeOptions('NoSniff, nosniff')).toBe('nosniff');
    expect(contentTypeOptions('nosniff; mode=x')).toBe('nosniff; mode=x');
    expect(contentTypeOptions(', nosniff')).toBe('nosniff');
  });

  it('COOP and COEP: the token of a Structured Fields item, case kept', () => {
    expect(structuredToken('same-origin; report-to="coop"')).toBe('same-origin');
    expect(structuredToken('Same-Origin')).toBe('Same-Origin');
    expect(structuredToken('"same-origin"')).toBeNull();
    expect(structuredToken('same-origin, same-origin')).toBeNull();
  });

  it('CORP: exactly one of the three values, case-sensitive', () => {
    expect(resourcePolicy(' same-site ')).toBe('same-site');
    expect(resourcePolicy('Same-Origin')).toBeNull();
    expect(resourcePolicy('same-origin, same-origin')).toBeNull();
  });

  it('X-Frame-Options: identical values collapse, differing ones stay joined', () => {
    expect(frameOptions('DENY, deny')).toBe('deny');
    expect(frameOptions('DENY, SAMEORIGIN')).toBe('deny, sameorigin');
  });
});
