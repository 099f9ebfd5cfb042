// The pure parts of the reachability probe: which addresses a name publishes, which of them get probed, and the
// distinct answers rules compare.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctAnswers, type AddressFacts } from '../../../plugins/reachability/facts.ts';
import { lookupError } from '../../../plugins/reachability/collect-host.ts';
import { rootUrl } from '../../../plugins/reachability/address-checks.ts';
import {
  MAX_PER_FAMILY,
  canonicalAddress,
  compareAddresses,
  planAddresses,
  publishedAddresses,
} from '../../../plugins/reachability/published.ts';
import type { DnsRecord, DnsResponse } from '../../../src/net/types.ts';

const rr = (name: string, type: string, data: unknown): DnsRecord => ({ name, type, ttl: 300, data });

describe('publishedAddresses', () => {
  it('reads the records of the name itself, canonical and once each', () => {
    const answers = [
      rr('example.test', 'AAAA', '2001:DB8:0:0:0:0:0:10'),
      rr('example.test', 'AAAA', '2001:db8::10'),
      rr('example.test', 'AAAA', '::1'),
    ];
    expect(publishedAddresses(answers, 'example.test', 'AAAA')).toEqual(['2001:db8::10', '::1']);
  });

  it('follows the CNAME chain and ignores records of other names and types', () => {
    const answers = [
      rr('www.example.test', 'CNAME', 'edge.cdn.test'),
      rr('edge.cdn.test', 'CNAME', 'node.cdn.test.'),
      rr('node.cdn.test', 'A', '192.0.2.7'),
      rr('other.test', 'A', '192.0.2.99'),
      rr('node.cdn.test', 'AAAA', '2001:db8::7'),
    ];
    expect(publishedAddresses(answers, 'WWW.example.test.', 'A')).toEqual(['192.0.2.7']);
  });

  it('stops on a CNAME loop and skips data that is not an address', () => {
    const answers = [rr('a.test', 'CNAME', 'b.test'), rr('b.test', 'CNAME', 'a.test'), rr('a.test', 'A', 'not-an-ip')];
    expect(publishedAddresses(answers, 'a.test', 'A')).toEqual([]);
    expect(canonicalAddress('not-an-ip')).toBeNull();
  });
});

describe('compareAddresses', () => {
  it('orders by bytes, not by text', () => {
    expect(['127.0.0.10', '127.0.0.9', '10.0.0.1'].sort(compareAddresses)).toEqual([
      '10.0.0.1',
      '127.0.0.9',
      '127.0.0.10',
    ]);
    expect(['2001:db8::10', '::1', '2001:db8::9'].sort(compareAddresses)).toEqual([
      '::1',
      '2001:db8::9',
      '2001:db8::10',
    ]);
  });
});

describe('planAddresses', () => {
  it('lists IPv4 first, marks refused and surplus addresses, probes the lowest ones', () => {
    const v4 = ['192.0.2.5', '192.0.2.1', '192.0.2.4', '10.0.0.1', '192.0.2.3', '192.0.2.2'];
    const allowed = new Set(['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5', '2001:db8::1']);
    expect(planAddresses(v4, ['2001:db8::1'], allowed)).toEqual([
      { address: '10.0.0.1', family: 4, skipped: 'policy_refused' },
      { address: '192.0.2.1', family: 4, skipped: null },
      { address: '192.0.2.2', family: 4, skipped: null },
      { address: '192.0.2.3', family: 4, skipped: null },
      { address: '192.0.2.4', family: 4, skipped: null },
      { address: '192.0.2.5', family: 4, skipped: 'over_limit' },
      { address: '2001:db8::1', family: 6, skipped: null },
    ]);
  });

  const v4Address = fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `192.0.${a}.${b}`);
  const v6Address = fc.nat(0xffff).map((n) => `2001:db8::${n.toString(16)}`);

  it('probes at most the limit per family, keeps every address once, and ignores the answer order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(v4Address, { maxLength: 12 }),
        fc.uniqueArray(v6Address, { maxLength: 12 }),
        fc.func(fc.boolean()),
        (v4, v6, allow) => {
          const allowed = new Set([...v4, ...v6].filter((a) => allow(a)));
          const plan = planAddresses(v4, v6, allowed);
          expect(plan.map((p) => p.address).sort()).toEqual([...v4, ...v6].sort());
          for (const family of [4, 6]) {
            expect(plan.filter((p) => p.family === family && p.skipped === null).length).toBeLessThanOrEqual(
              MAX_PER_FAMILY,
            );
          }
          for (const p of plan) expect(p.skipped === 'policy_refused').toBe(!allowed.has(p.address));
          expect(planAddresses([...v4].reverse(), [...v6].reverse(), allowed)).toEqual(plan);
        },
      ),
    );
  });
});

describe('distinctAnswers', () => {
  const at = (address: string, leaf: string | null, status: number | null, body: string | null): AddressFacts => ({
    address,
    family: 4,
    probed: true,
    skipped: null,
    tls: {
      error: leaf ? null : 'timeout',
      protocol: leaf ? 'TLSv1.3' : null,
      alpn: null,
      certificate_valid: leaf ? true : null,
      authorization_error: null,
      leaf_sha256: leaf,
    },
    https: {
      status,
      error: status === null ? 'timeout' : null,
      location: null,
      body_sha256: body,
      body_bytes: body ? 1 : null,
      truncated: body ? false : null,
    },
    http: null,
  });

  it('collects the distinct certificates, statuses and bodies, sorted, skipping what was not observed', () => {
    const facts = distinctAnswers([
      at('192.0.2.1', 'bb', 404, 'f0'),
      at('192.0.2.2', 'aa', 200, 'e0'),
      at('192.0.2.3', 'bb', 200, 'e0'),
      at('192.0.2.4', null, null, null),
    ]);
    expect(facts).toEqual({ leaf_sha256s: ['aa', 'bb'], https_statuses: [200, 404], body_sha256s: ['e0', 'f0'] });
  });

  it('is empty when nothing was probed', () => {
    const skipped: AddressFacts = {
      address: '10.0.0.1',
      family: 4,
      probed: false,
      skipped: 'policy_refused',
      tls: null,
      https: null,
      http: null,
    };
    expect(distinctAnswers([skipped])).toEqual({ leaf_sha256s: [], https_statuses: [], body_sha256s: [] });
  });
});

describe('lookupError and rootUrl', () => {
  const answer = (rcode: string): DnsResponse => ({
    rcode,
    flags: { ad: false, aa: false, tc: false },
    answers: [],
    authorities: [],
    server: '127.0.0.1:53',
  });

  it('turns a lookup into its failure code', () => {
    expect(lookupError({ response: answer('NOERROR'), error: null })).toBeNull();
    expect(lookupError({ response: answer('NXDOMAIN'), error: null })).toBe('dns_nxdomain');
    expect(lookupError({ response: answer('SERVFAIL'), error: null })).toBe('dns_servfail');
    expect(lookupError({ response: answer('NOTIMP'), error: null })).toBe('dns_error');
    expect(lookupError({ response: null, error: 'dns_refused' })).toBe('dns_refused');
  });

  it('leaves default ports out of the URL', () => {
    expect(rootUrl('https', 'example.test', 443)).toBe('https://example.test/');
    expect(rootUrl('http', 'example.test', 80)).toBe('http://example.test/');
    expect(rootUrl('https', 'example.test', 8443)).toBe('https://example.test:8443/');
  });
});
