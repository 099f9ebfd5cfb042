import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseLinkHeader } from '../../../plugins/wellknown/parse-link-header.ts';

const BASE = 'https://good.test/';

describe('parseLinkHeader', () => {
  it('parses the RFC 8288 section 3.5 examples', () => {
    expect(
      parseLinkHeader('<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter"', BASE).links,
    ).toEqual([{ href: 'http://example.com/TheBook/chapter2', rel: ['previous'], type: null }]);
    expect(parseLinkHeader('</>; rel="http://example.net/foo"', BASE).links).toEqual([
      { href: 'https://good.test/', rel: ['http://example.net/foo'], type: null },
    ]);
    expect(parseLinkHeader('</terms>; rel="copyright"; anchor="#foo"', BASE).links[0]!.rel).toEqual(['copyright']);
    const two = parseLinkHeader(
      '</TheBook/chapter2>; rel="previous"; title*=UTF-8\'de\'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8\'de\'n%c3%a4chstes%20Kapitel',
      BASE,
    );
    expect(two.problems).toEqual([]);
    expect(two.links.map((l) => [l.href, l.rel])).toEqual([
      ['https://good.test/TheBook/chapter2', ['previous']],
      ['https://good.test/TheBook/chapter4', ['next']],
    ]);
    expect(
      parseLinkHeader('<http://example.org/>; rel="start http://example.net/relation/other"', BASE).links[0]!.rel,
    ).toEqual(['start', 'http://example.net/relation/other']);
  });

  it('reads agent relations, types, unquoted values and commas inside quotes', () => {
    const p = parseLinkHeader(
      '</.well-known/api-catalog>; rel=api-catalog, </index.md>; rel="alternate"; type="Text/Markdown"; title="a, b", </llms.txt>;rel=describedby',
      BASE,
    );
    expect(p.problems).toEqual([]);
    expect(p.links).toEqual([
      { href: 'https://good.test/.well-known/api-catalog', rel: ['api-catalog'], type: null },
      { href: 'https://good.test/index.md', rel: ['alternate'], type: 'text/markdown' },
      { href: 'https://good.test/llms.txt', rel: ['describedby'], type: null },
    ]);
  });

  it('keeps only the first rel and lower-cases relation types', () => {
    expect(parseLinkHeader('</a>; rel="Service-Desc"; rel="other"', BASE).links[0]!.rel).toEqual(['service-desc']);
  });

  it('skips malformed values, naming the production each breaks', () => {
    const p = parseLinkHeader('no-brackets; rel=x, </ok>; rel=next, <unterminated; rel="a', BASE);
    expect(p.links.map((l) => l.href)).toEqual(['https://good.test/ok']);
    expect(p.problems.map((e) => [e.production, e.dropped])).toEqual([
      ['link-value', true],
      ['link-value', true],
    ]);
  });

  it('reads an unquoted type or extension relation that is not a token, as browsers do', () => {
    const p = parseLinkHeader(
      '</openapi.json>; rel=service-desc; type=application/openapi+json, </x>; rel=https://example.com/rel',
      BASE,
    );
    expect(p.links).toEqual([
      { href: 'https://good.test/openapi.json', rel: ['service-desc'], type: 'application/openapi+json' },
      { href: 'https://good.test/x', rel: ['https://example.com/rel'], type: null },
    ]);
    expect(p.problems.map((e) => [e.production, e.dropped])).toEqual([
      ['link-param', false],
      ['link-param', false],
    ]);
  });

  it('keeps a target a browser resolves though RFC 3986 refuses it, and reports it', () => {
    const p = parseLinkHeader('<https://fonts.example/css?family=A|B>; rel=preload', BASE);
    expect(p.links.map((l) => l.href)).toEqual(['https://fonts.example/css?family=A|B']);
    expect(p.problems).toEqual([expect.objectContaining({ production: 'URI-Reference', dropped: false })]);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseLinkHeader(s, BASE)));
  });
});

// Generators transcribed from RFC 8288 section 3 and RFC 9110 section 5.6.
const tchar = fc.constantFrom(..."!#$%&'*+.^_`|~09azAZ-".split(''));
const token = fc.string({ unit: tchar, minLength: 1, maxLength: 8 });
const ows = fc.constantFrom('', ' ', '\t', ' \t ');
/** qdtext and quoted-pairs, commas, semicolons and angle-free text included; returns [wire form, value]. */
const quoted = fc
  .array(fc.constantFrom('a', 'Z', ' ', ',', ';', '=', '/', '\\"', '\\\\', 'é'), { maxLength: 8 })
  .map((parts) => [`"${parts.join('')}"`, parts.map((p) => (p.startsWith('\\') ? p.slice(1) : p)).join('')] as const);
const paramValue = fc.oneof(
  token.map((t) => [t, t] as const),
  quoted,
);
const pchar = fc.constantFrom('a', 'B', '0', '-', '.', '_', '~', '%20', '!', '$', '&', '(', '=', '@', ':');
const segment = fc.string({ unit: pchar, maxLength: 6 });
const segmentNz = fc.string({ unit: pchar, minLength: 1, maxLength: 6 });
/** URI-reference (RFC 3986 section 4.1): absolute URIs and path-absolute relative references. */
const uriReference = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  // path-absolute: the first segment is not empty, or "//" would start an authority.
  fc.tuple(segmentNz, fc.array(segment, { maxLength: 2 })).map(([first, rest]) => `/${[first, ...rest].join('/')}`),
);
const relType = fc.oneof(fc.constantFrom('describedby', 'API-Catalog', 'alternate', 'service-desc'), fc.webUrl());
const relParam = fc.array(relType, { minLength: 1, maxLength: 3 }).map((types) => ({
  wire: `rel="${types.join(' ')}"`,
  rel: types.map((t) => t.toLowerCase()),
}));
const otherParam = fc
  .tuple(
    token.filter((t) => !['rel', 'type'].includes(t.toLowerCase())),
    fc.option(paramValue),
    ows,
  )
  .map(([name, value, bws]) => (value ? `${name}${bws}=${bws}${value[0]}` : name));
const linkValue = fc
  .record({
    target: uriReference,
    rel: fc.option(relParam),
    type: fc.option(fc.constantFrom('text/markdown', 'Application/JSON')),
    others: fc.array(otherParam, { maxLength: 3 }),
    sp: ows,
  })
  .map((v) => {
    const params = [...v.others, ...(v.rel ? [v.rel.wire] : []), ...(v.type ? [`type="${v.type}"`] : [])];
    return {
      wire: `<${v.target}>${params.map((p) => `${v.sp};${v.sp}${p}`).join('')}`,
      link: { href: new URL(v.target, BASE).href, rel: v.rel?.rel ?? [], type: v.type?.toLowerCase() ?? null },
    };
  });
const header = fc
  .tuple(fc.array(linkValue, { minLength: 1, maxLength: 4 }), ows, fc.boolean())
  .map(([values, sp, empty]) => ({
    // The list grammar allows empty elements (RFC 9110 section 5.6.1).
    wire: values.map((v) => v.wire).join(`${sp},${sp}${empty ? `,${sp}` : ''}`),
    links: values.map((v) => v.link),
  }));

describe('Link header from the RFC 8288 grammar', () => {
  it('parses every generated header with its targets, relations and types', () => {
    fc.assert(
      fc.property(header, ({ wire, links }) => {
        const p = parseLinkHeader(wire, BASE);
        expect(p.problems).toEqual([]);
        expect(p.links).toEqual(links);
      }),
    );
  });

  /** One production broken in the last link-value; the values before it still parse. */
  const mutations: [string, (value: string) => string, string][] = [
    ['no "<" before the target', (v) => v.slice(1), 'link-value'],
    ['no ">" after the target', (v) => v.replace('>', ' '), 'link-value'],
    ['a parameter without ";"', (v) => v.replace('>', '> rel=next'), 'link-value'],
    ['a parameter name that is not a token', (v) => `${v}; @rel=next`, 'link-param'],
    ['a partly quoted parameter value', (v) => `${v}; rel=next"x"`, 'link-param'],
    ['an unterminated quoted-string', (v) => `${v}; title="open`, 'quoted-string'],
    ['a control character in a quoted-string', (v) => `${v}; title="a\u0001b"`, 'quoted-string'],
    ['a target no URL parser resolves', (v) => v.replace(/^<[^>]*>/, '<http://[::1>'), 'URI-Reference'],
  ];
  for (const [name, mutate, production] of mutations) {
    it(`refuses ${name} (${production})`, () => {
      fc.assert(
        fc.property(fc.array(linkValue, { minLength: 1, maxLength: 3 }), (values) => {
          const last = values.at(-1)!;
          const wire = [...values.slice(0, -1).map((v) => v.wire), mutate(last.wire)].join(', ');
          const p = parseLinkHeader(wire, BASE);
          expect(p.links).toEqual(values.slice(0, -1).map((v) => v.link));
          // Without its "<", a target's own commas split it into more than one broken value.
          expect(p.problems.length).toBeGreaterThan(0);
          for (const problem of p.problems)
            expect(problem).toEqual({
              production,
              detail: expect.stringMatching(`^${production}: `) as string,
              dropped: true,
            });
        }),
      );
    });
  }

  it('keeps a link whose unquoted parameter value is not a token, as browsers do, and reports it', () => {
    const notToken = fc.constantFrom('(next)', 'application/json', 'https://example.com/rel', '', 'a b');
    fc.assert(
      fc.property(linkValue, notToken, ({ wire, link }, bad) => {
        const p = parseLinkHeader(`${wire}; x-hint=${bad}`, BASE);
        expect(p.links).toEqual([link]);
        expect(p.problems).toEqual([
          { production: 'link-param', detail: expect.stringMatching(/^link-param: /) as string, dropped: false },
        ]);
      }),
    );
  });

  it('reports a target outside RFC 3986 (a space, a "|", a bare "%") as URI-Reference, keeping the link', () => {
    fc.assert(
      fc.property(linkValue, fc.constantFrom(' ', '|', '%', '{', '^'), ({ wire, link }, bad) => {
        const p = parseLinkHeader(wire.replace('>', `/${bad}x>`), BASE);
        expect(p.links).toHaveLength(1);
        expect(p.links[0]!.rel).toEqual(link.rel);
        expect(p.problems).toEqual([
          { production: 'URI-Reference', detail: expect.stringMatching(/^URI-Reference: /) as string, dropped: false },
        ]);
      }),
    );
  });
});
