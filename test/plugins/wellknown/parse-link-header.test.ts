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
    expect(p.errors).toBe(0);
    expect(p.links).toEqual([
      { href: 'https://good.test/.well-known/api-catalog', rel: ['api-catalog'], type: null },
      { href: 'https://good.test/index.md', rel: ['alternate'], type: 'text/markdown' },
      { href: 'https://good.test/llms.txt', rel: ['describedby'], type: null },
    ]);
  });

  it('keeps only the first rel and lower-cases relation types', () => {
    expect(parseLinkHeader('</a>; rel="Service-Desc"; rel="other"', BASE).links[0]!.rel).toEqual(['service-desc']);
  });

  it('skips malformed values and counts them', () => {
    const p = parseLinkHeader('no-brackets; rel=x, </ok>; rel=next, <unterminated; rel="a', BASE);
    expect(p.links.map((l) => l.href)).toEqual(['https://good.test/ok']);
    expect(p.errors).toBe(2);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseLinkHeader(s, BASE)));
  });
});
