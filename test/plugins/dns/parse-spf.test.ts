import { describe, it, expect } from 'vitest';
import { parseSpf, SPF_VERSION } from '../../../plugins/dns/parse-spf.ts';

describe('parseSpf', () => {
  it('reads a typical record: terms in order, all qualifier, includes, lookup count', () => {
    const spf = parseSpf('v=spf1 ip4:192.0.2.0/24 include:_spf.mail.example a mx:mx.example/24 ~all');
    expect(spf.terms.map((t) => `${t.qualifier}${t.mechanism}`)).toEqual(['+ip4', '+include', '+a', '+mx', '~all']);
    expect(spf.all).toBe('~');
    expect(spf.includes).toEqual(['_spf.mail.example']);
    expect(spf.lookup_terms).toBe(3);
    expect(spf.errors).toEqual([]);
  });

  it('counts redirect as a lookup only when there is no all', () => {
    expect(parseSpf('v=spf1 redirect=_spf.example').lookup_terms).toBe(1);
    expect(parseSpf('v=spf1 redirect=_spf.example').redirect).toBe('_spf.example');
    expect(parseSpf('v=spf1 -all redirect=_spf.example').lookup_terms).toBe(0);
  });

  it('flags ptr, unknown mechanisms and unknown modifiers separately', () => {
    const spf = parseSpf('v=spf1 ptr foo:bar moo=cow -all');
    expect(spf.ptr_used).toBe(true);
    expect(spf.unknown_mechanisms).toEqual(['foo']);
    expect(spf.unknown_modifiers).toEqual(['moo']);
    expect(spf.lookup_terms).toBe(1);
  });

  it('reports arguments that do not parse', () => {
    const spf = parseSpf('v=spf1 ip4:300.1.1.1 ip6:2001:db8::/129 include all:x redirect=a redirect=b');
    expect(spf.errors).toEqual([
      'ip4:300.1.1.1 is not a valid IPv4 network',
      'ip6:2001:db8::/129 is not a valid IPv6 network',
      'include needs a domain',
      'all takes no argument',
      'redirect= appears more than once',
    ]);
  });

  it('accepts cidr forms of a and mx, and macros in domain-specs', () => {
    const spf = parseSpf('v=spf1 a/24 a//64 mx:example.org/24//48 exists:%{i}._spf.%{d} -all');
    expect(spf.errors).toEqual([]);
    expect(spf.terms[0]).toEqual({ qualifier: '+', mechanism: 'a', value: '/24' });
    expect(spf.lookup_terms).toBe(4);
  });

  it('tolerates several spaces between terms and a trailing space', () => {
    expect(parseSpf('v=spf1  -all ').all).toBe('-');
  });

  it('selects records by the exact version tag', () => {
    expect(SPF_VERSION.test('v=spf1 -all')).toBe(true);
    expect(SPF_VERSION.test('V=SPF1')).toBe(true);
    expect(SPF_VERSION.test('v=spf10 -all')).toBe(false);
    expect(SPF_VERSION.test('spf2.0/pra -all')).toBe(false);
  });
});
