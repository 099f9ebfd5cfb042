// The SPF parser against RFC 7208 three ways: the RFC's own records and macro examples, records generated from
// its ABNF (all parse, with the right terms), and valid records with one production broken (all refused, the
// message naming the production).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSpf, SPF_VERSION } from '../../../plugins/dns/parse-spf.ts';

describe('RFC 7208 examples', () => {
  // Appendix D (D.1 simple examples, D.3 DNSBL style, D.4 multiple requirements) and section 6.2.
  const records = [
    'v=spf1 +all',
    'v=spf1 a -all',
    'v=spf1 a:example.org -all',
    'v=spf1 mx -all',
    'v=spf1 mx:example.org -all',
    'v=spf1 mx mx:example.org -all',
    'v=spf1 mx/30 mx:example.org/30 -all',
    'v=spf1 ptr -all',
    'v=spf1 ip4:192.0.2.128/28 -all',
    'v=spf1 mx include:mobile-users._spf.%{d} include:remote-users._spf.%{d} -all',
    'v=spf1 exists:%{l1r+}.%{d}',
    'v=spf1 -include:ip4._spf.%{d} -include:ptr._spf.%{d} +all',
    'v=spf1 -ip4:192.0.2.0/24 +all',
    'v=spf1 -ptr +all',
    'v=spf1 mx -all exp=explain._spf.%{d}',
    'v=spf1 redirect=_spf.example.com',
  ];
  it.each(records)('%s parses', (record) => {
    expect(parseSpf(record).errors).toEqual([]);
  });

  // Section 7.4: every macro example is a valid domain-spec.
  const macros = [
    '%{s}',
    '%{o}',
    '%{d}',
    '%{d4}',
    '%{d3}',
    '%{d2}',
    '%{d1}',
    '%{dr}',
    '%{d2r}',
    '%{l}',
    '%{l-}',
    '%{lr}',
    '%{lr-}',
    '%{l1r-}',
    '%{ir}.%{v}._spf.%{d2}',
    '%{lr-}.lp._spf.%{d2}',
    '%{lr-}.lp.%{ir}.%{v}._spf.%{d2}',
    '%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}',
    '%{d2}.trusted-domains.example.net',
  ];
  it.each(macros)('exists:%s parses', (spec) => {
    const spf = parseSpf(`v=spf1 exists:${spec} -all`);
    expect(spf.errors).toEqual([]);
    expect(spf.terms[0]).toEqual({ qualifier: '+', mechanism: 'exists', value: spec, domain_spec: spec });
  });

  it('reads a typical record: terms in order, all qualifier, includes, lookup count', () => {
    const spf = parseSpf('v=spf1 ip4:192.0.2.0/24 include:_spf.mail.example a mx:mx.example/24 ~all');
    expect(spf.terms.map((t) => `${t.qualifier}${t.mechanism}`)).toEqual(['+ip4', '+include', '+a', '+mx', '~all']);
    expect(spf.terms[3]).toEqual({
      qualifier: '+',
      mechanism: 'mx',
      value: 'mx.example/24',
      domain_spec: 'mx.example',
    });
    expect([spf.all, spf.includes, spf.lookup_terms]).toEqual(['~', ['_spf.mail.example'], 3]);
  });

  it('counts redirect as a lookup only when there is no all, and keeps targets as written', () => {
    expect(parseSpf('v=spf1 redirect=_SPF.%{D}.example').redirect).toBe('_SPF.%{D}.example');
    expect(parseSpf('v=spf1 redirect=_spf.example').lookup_terms).toBe(1);
    expect(parseSpf('v=spf1 -all redirect=_spf.example').lookup_terms).toBe(0);
  });

  it('accepts the upper-case macro letters, transformers, delimiters and %%, %_, %- of section 7.1', () => {
    expect(parseSpf('v=spf1 exists:%{IR}.%{L2r+-=_}.%%.%_.%-.%{d}.example -all').errors).toEqual([]);
  });

  it('keeps ptr, unknown modifiers and the case-insensitive version', () => {
    const spf = parseSpf('V=SPF1 PTR moo=cow-%{c} -ALL');
    expect([spf.terms[0]!.mechanism, spf.unknown_modifiers, spf.all, spf.errors]).toEqual(['ptr', ['moo'], '-', []]);
    expect(SPF_VERSION.test('v=spf1 -all')).toBe(true);
    expect(SPF_VERSION.test('v=spf10 -all')).toBe(false);
    expect(SPF_VERSION.test('v=spf1\t-all')).toBe(false);
  });

  it('allows several spaces between terms and trailing spaces (record = version terms *SP)', () => {
    expect(parseSpf('v=spf1  -all  ')).toMatchObject({ all: '-', errors: [] });
  });
});

// Generators for the ABNF of RFC 7208 sections 4.6.1, 5, 6 and 7.1.
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const toplabel = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{0,3}[a-z][a-z0-9]{0,3}$/),
  fc.stringMatching(/^[a-z0-9]{1,3}-[a-z0-9-]{0,3}[a-z0-9]$/),
);
const macro = fc
  .tuple(
    fc.constantFrom(...'slodiphvSLODIPHV'),
    fc.option(fc.integer({ min: 1, max: 128 }), { nil: undefined }),
    fc.constantFrom('', 'r', 'R'),
    fc.array(fc.constantFrom('.', '-', '+', ',', '/', '_', '='), { maxLength: 3 }),
  )
  .map(([letter, digits, r, delimiters]) => `%{${letter}${digits ?? ''}${r}${delimiters.join('')}}`);
const domainSpec = fc.oneof(
  fc
    .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), toplabel, fc.boolean())
    .map(([labels, top, dot]) => `${labels.join('.')}.${top}${dot ? '.' : ''}`),
  fc.tuple(macro, fc.array(label, { maxLength: 2 }), toplabel).map(([m, l, top]) => [m, ...l, top].join('.')),
  fc.tuple(fc.array(label, { maxLength: 2 }), macro).map(([l, m]) => [...l, m].join('.')),
  fc.constantFrom('%%.example', '%_.%-.%{d}'),
);
const qualifier = fc.constantFrom('', '+', '-', '~', '?');
const cidr4 = fc.integer({ min: 0, max: 32 }).map((n) => `/${n}`);
const cidr6 = fc.integer({ min: 0, max: 128 }).map((n) => `//${n}`);

interface Generated {
  text: string;
  mechanism: string;
  domain_spec: string | null;
}
const term: fc.Arbitrary<Generated> = fc.oneof(
  fc.tuple(fc.constantFrom('include', 'exists'), domainSpec).map(([m, d]) => ({
    text: `${m}:${d}`,
    mechanism: m,
    domain_spec: d,
  })),
  fc
    .tuple(fc.constantFrom('a', 'mx'), fc.option(domainSpec, { nil: null }), fc.option(cidr4), fc.option(cidr6))
    .map(([m, d, c4, c6]) => ({
      text: `${m}${d === null ? '' : `:${d}`}${c4 ?? ''}${c6 ?? ''}`,
      mechanism: m,
      domain_spec: d,
    })),
  fc.option(domainSpec, { nil: null }).map((d) => ({
    text: d === null ? 'ptr' : `ptr:${d}`,
    mechanism: 'ptr',
    domain_spec: d,
  })),
  fc
    .tuple(fc.ipV4(), fc.option(cidr4))
    .map(([ip, c]) => ({ text: `ip4:${ip}${c ?? ''}`, mechanism: 'ip4', domain_spec: null })),
  fc
    .tuple(fc.ipV6(), fc.option(fc.integer({ min: 0, max: 128 })))
    .map(([ip, c]) => ({ text: `ip6:${ip}${c === null ? '' : `/${c}`}`, mechanism: 'ip6', domain_spec: null })),
  fc.constant({ text: 'all', mechanism: 'all', domain_spec: null }),
);
const record = fc
  .tuple(
    fc.array(fc.tuple(qualifier, term), { maxLength: 8 }),
    fc.option(domainSpec),
    fc.option(domainSpec),
    fc.array(fc.stringMatching(/^[a-z][a-z0-9._-]{0,6}=[a-z0-9.]{0,6}$/), { maxLength: 2 }),
    fc.integer({ min: 1, max: 3 }),
  )
  .map(([terms, redirect, exp, unknown, spaces]) => {
    const modifiers = [
      ...(redirect === null ? [] : [`redirect=${redirect}`]),
      ...(exp === null ? [] : [`exp=${exp}`]),
      ...unknown.filter((u) => !/^(redirect|exp)=/.test(u)),
    ];
    const texts = [...terms.map(([q, t]) => q + t.text), ...modifiers];
    return { text: ['v=spf1', ...texts].join(' '.repeat(spaces)), terms };
  });

describe('records generated from the ABNF', () => {
  it('all parse, with each term read back', () => {
    fc.assert(
      fc.property(record, ({ text, terms }) => {
        const spf = parseSpf(text);
        expect(spf.errors).toEqual([]);
        expect(spf.terms.map((t) => [t.mechanism, t.domain_spec])).toEqual(
          terms.map(([, t]) => [t.mechanism, t.domain_spec]),
        );
        expect(spf.terms.map((t) => t.qualifier)).toEqual(terms.map(([q]) => q || '+'));
      }),
    );
  });
});

describe('records with one production broken', () => {
  // Each term breaks exactly the production named beside it.
  const broken: Array<[string, string]> = [
    ['a:', 'domain-spec'],
    ['mx:', 'domain-spec'],
    ['include', 'domain-spec'],
    ['exists:', 'domain-spec'],
    ['a:localhost', 'domain-end'],
    ['include:example.com.123', 'toplabel'],
    ['mx:mail.example-', 'toplabel'],
    ['ptr:example.-com', 'toplabel'],
    ['exists:%{x}.example.com', 'macro-letter'],
    ['exists:%{t}.example.com', 'macro-letter'],
    ['exists:%{d0}.example.com', 'transformers'],
    ['include:50%.example.com', 'macro-expand'],
    ['exists:%{d.example.com', 'macro-expand'],
    ['a:%%', 'domain-end'],
    ['exists:%{i}.%-', 'toplabel'],
    ['a/33', 'ip4-cidr-length'],
    ['a/024', 'ip4-cidr-length'],
    ['mx//129', 'ip6-cidr-length'],
    ['ip4:256.1.1.1', 'ip4-network'],
    ['ip4:01.2.3.4', 'ip4-network'],
    ['ip4:192.0.2.0/24/8', 'ip4-cidr-length'],
    ['ip4', 'ip4-network'],
    ['ip6:1::2::3', 'ip6-network'],
    ['ip6:fe80::1%eth0', 'ip6-network'],
    ['ip6:2001:db8::/129', 'ip6-cidr-length'],
    ['all:example.com', 'all'],
    ['include2:example.com', 'mechanism'],
    ['redirect=example', 'domain-end'],
    ['exp=', 'domain-spec'],
    ['foo=%{q}', 'macro-letter'],
    ['-a\x01', 'terms'],
    ['+', 'directive'],
  ];
  it.each(broken)('"%s" breaks %s', (bad, production) => {
    const spf = parseSpf(`v=spf1 mx ${bad} -all`);
    expect(spf.errors).toHaveLength(1);
    expect(spf.errors[0]).toContain(`breaks ${production}:`);
  });

  it('refuses a repeated redirect= or exp=, and a wrong version', () => {
    expect(parseSpf('v=spf1 redirect=a.example redirect=b.example').errors).toEqual([
      '"redirect=b.example" breaks redirect: redirect= may appear only once (section 6)',
    ]);
    expect(parseSpf('v=spf1 exp=a.example exp=b.example').errors[0]).toContain('breaks exp:');
    expect(parseSpf('v=spf2 -all').errors[0]).toContain('breaks version:');
  });

  it('any generated record with one broken term inserted is refused for that production only', () => {
    fc.assert(
      fc.property(record, fc.constantFrom(...broken), fc.nat(), ({ text }, [bad, production], at) => {
        // A second redirect= or exp= would break "appears once" instead.
        fc.pre(!/^(redirect|exp)=/.test(bad) || !text.includes(` ${bad.split('=')[0]}=`));
        const [version, ...rest] = text.split(' ').filter((t) => t !== '');
        rest.splice(at % (rest.length + 1), 0, bad);
        const spf = parseSpf([version, ...rest].join(' '));
        const mine = spf.errors.filter((e) => e.startsWith(`"${bad}"`));
        expect(mine).toHaveLength(1);
        expect(mine[0]).toContain(`breaks ${production}:`);
      }),
    );
  });
});
