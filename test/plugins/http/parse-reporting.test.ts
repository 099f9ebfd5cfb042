import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseNel, parseReportingEndpoints, parseReportTo } from '../../../plugins/http/parse-reporting.ts';

const PAGE = 'https://example.com/';

describe('Reporting-Endpoints (W3C Reporting API section 3.2)', () => {
  it('reads the spec example and resolves relative URLs against the page', () => {
    expect(parseReportingEndpoints('endpoint-1="https://example.com/reports"', PAGE)).toEqual({
      raw: 'endpoint-1="https://example.com/reports"',
      parse_error: null,
      endpoints: [{ name: 'endpoint-1', url: 'https://example.com/reports' }],
    });
    expect(parseReportingEndpoints('csp="/csp-reports"', PAGE).endpoints).toEqual([
      { name: 'csp', url: 'https://example.com/csp-reports' },
    ]);
  });

  it('reads generated dictionaries', () => {
    const key = fc
      .tuple(
        fc.constantFrom('a', 'z', '*'),
        fc.string({ unit: fc.constantFrom('a', '0', '_', '-', '.', '*'), maxLength: 8 }),
      )
      .map(([a, b]) => a + b);
    fc.assert(
      fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 4 }), (keys) => {
        const r = parseReportingEndpoints(keys.map((k) => `${k}="https://r.example/${k}"`).join(', '), PAGE);
        expect(r.parse_error).toBeNull();
        expect(r.endpoints.map((e) => e.name)).toEqual(keys);
      }),
    );
  });

  it('refuses what is not a dictionary, and keeps a non-string member without a URL', () => {
    expect(parseReportingEndpoints('default="https://x.example/', PAGE).parse_error).toMatch(/^sf-dictionary:/);
    expect(parseReportingEndpoints('Default="https://x.example/"', PAGE).parse_error).toMatch(/^sf-dictionary:/);
    expect(parseReportingEndpoints('a=1', PAGE).endpoints).toEqual([{ name: 'a', url: null }]);
    // An unquoted URL is a Structured Fields token, not a string: browsers skip it.
    expect(parseReportingEndpoints('default=https://x.example/', PAGE).endpoints).toEqual([
      { name: 'default', url: null },
    ]);
  });
});

describe('Report-To (Reporting API 2018 draft section 3.1) and NEL (W3C Network Error Logging)', () => {
  const reportTo =
    '{ "group": "network-errors", "max_age": 2592000, "endpoints": [{ "url": "https://example.com/upload-reports" }] }';

  it('read the specs examples', () => {
    expect(parseReportTo(reportTo, PAGE)).toEqual({
      raw: reportTo,
      parse_error: null,
      groups: [
        {
          name: 'network-errors',
          max_age: 2592000,
          include_subdomains: false,
          endpoints: ['https://example.com/upload-reports'],
        },
      ],
    });
    expect(parseNel('{"report_to": "network-errors", "max_age": 2592000}')).toMatchObject({
      parse_error: null,
      report_to: 'network-errors',
      max_age: 2592000,
      success_fraction: 0,
      failure_fraction: 1,
    });
  });

  it('read generated groups and policies', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            group: fc.option(fc.string({ minLength: 1, maxLength: 6 })),
            maxAge: fc.nat(),
            sub: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        (gs) => {
          const text = gs
            .map((g) =>
              JSON.stringify({
                ...(g.group === null ? {} : { group: g.group }),
                max_age: g.maxAge,
                include_subdomains: g.sub,
                endpoints: [{ url: '/r' }],
              }),
            )
            .join(', ');
          expect(parseReportTo(text, PAGE).groups).toEqual(
            gs.map((g) => ({
              name: g.group ?? 'default',
              max_age: g.maxAge,
              include_subdomains: g.sub,
              endpoints: ['https://example.com/r'],
            })),
          );
        },
      ),
    );
  });

  it('refuse what is not JSON objects, and leave out members of the wrong type', () => {
    expect(parseReportTo('{group: x}', PAGE).parse_error).toMatch(/^Report-To: not JSON/);
    expect(parseReportTo('[1]', PAGE).parse_error).toMatch(/^Report-To: a member is not a JSON object/);
    expect(parseReportTo('{"max_age": -1, "endpoints": [{"url": 5}, "x"]}', PAGE).groups).toEqual([
      { name: 'default', max_age: null, include_subdomains: false, endpoints: [] },
    ]);
    expect(parseNel('{"report_to": 1, "max_age": "1", "success_fraction": 2}')).toMatchObject({
      report_to: null,
      max_age: null,
      success_fraction: 0,
    });
    expect(parseNel('').parse_error).toBe('NEL: no policy object');
    expect(parseNel('nope').parse_error).toMatch(/^NEL: not JSON/);
  });
});
