// The SPF walk against a zone held in memory: which names each DNS-querying term looks up, what the answers
// held (the facts the void-lookup, mx and include rules read), errors inside included records, the redirect
// chain's all, and the 10-lookup budget (RFC 7208 section 4.6.4).
import { describe, expect, it } from 'vitest';
import { collectSpf, expandSpf } from '../../../plugins/dns/collect-spf.ts';
import { createQuerier } from '../../../plugins/dns/query.ts';
import type { DnsRecord, DnsResponse, Net } from '../../../src/net/types.ts';

type Zone = Record<string, Partial<Record<'TXT' | 'A' | 'AAAA' | 'MX', unknown[]>>>;

function querier(zone: Zone, asked: string[] = []) {
  const net = {
    dns(name: string, type: string): Promise<DnsResponse> {
      asked.push(`${name} ${type}`);
      const node = zone[name];
      const answers: DnsRecord[] = (node?.[type as 'TXT'] ?? []).map((data) => ({
        name,
        type,
        ttl: 60,
        data,
      }));
      const base = { flags: { ad: false, aa: false, tc: false }, authorities: [], server: 'memory' };
      return Promise.resolve({ ...base, rcode: node ? 'NOERROR' : 'NXDOMAIN', answers });
    },
  } as unknown as Net;
  return createQuerier(net, new AbortController().signal);
}

async function walk(zone: Zone, domain = 'example.org') {
  const q = querier(zone);
  return expandSpf(q, await collectSpf(q, domain));
}

const mx = (n: number) => Array.from({ length: n }, (_, i) => ({ preference: 10, exchange: `mx${i}.example.org` }));

describe('the SPF walk', () => {
  it('looks up the names of a, mx, exists, include and redirect terms, with the answers they get', async () => {
    const exp = await walk({
      'example.org': {
        TXT: [['v=spf1 a mx:mail.example.org exists:%{i}.allow.example.org include:_spf.example.net ~all']],
        A: ['192.0.2.1'],
      },
      'mail.example.org': { MX: mx(2) },
      '_spf.example.net': { TXT: [['v=spf1 ip4:198.51.100.0/24 -all'], ['unrelated']] },
    });
    expect(exp).toEqual({
      lookups: 4,
      effective_all: '~',
      complete: true,
      targets: [
        {
          domain: 'example.org',
          via: 'a',
          from: 'example.org',
          rcode: 'NOERROR',
          answers: 1,
          spf_count: null,
          errors: null,
        },
        {
          domain: 'mail.example.org',
          via: 'mx',
          from: 'example.org',
          rcode: 'NOERROR',
          answers: 2,
          spf_count: null,
          errors: null,
        },
        {
          domain: '%{i}.allow.example.org',
          via: 'exists',
          from: 'example.org',
          rcode: null,
          answers: null,
          spf_count: null,
          errors: null,
        },
        {
          domain: '_spf.example.net',
          via: 'include',
          from: 'example.org',
          rcode: 'NOERROR',
          answers: 2,
          spf_count: 1,
          errors: [],
        },
      ],
    });
  });

  it('records void answers (NXDOMAIN, or no record of the type asked) and MX sets larger than 10', async () => {
    const exp = await walk({
      'example.org': {
        TXT: [['v=spf1 a:old.example.org mx exists:gone.example.org include:nothing.example.org -all']],
        MX: mx(12),
      },
      'old.example.org': { TXT: [['hello']] },
      'nothing.example.org': {},
    });
    expect(exp.targets.map((t) => [t.via, t.rcode, t.answers])).toEqual([
      ['a', 'NOERROR', 0],
      ['mx', 'NOERROR', 12],
      ['exists', 'NXDOMAIN', 0],
      ['include', 'NOERROR', 0],
    ]);
  });

  it('reports the grammar errors of an included record upward, and walks its terms with its own domain', async () => {
    const exp = await walk({
      'example.org': { TXT: [['v=spf1 include:_spf.example.org -all']] },
      '_spf.example.org': { TXT: [['v=spf1 a a:mail -all']], A: ['192.0.2.9'] },
    });
    expect(exp.targets[0]).toMatchObject({
      via: 'include',
      spf_count: 1,
      errors: ['"a:mail" breaks domain-end: "mail" must end in "." and a top label, or in a macro'],
    });
    expect(exp.targets[1]).toMatchObject({
      via: 'a',
      domain: '_spf.example.org',
      from: '_spf.example.org',
      answers: 1,
    });
  });

  it('takes the all of the record that redirect= chains reach, and none from a redirect inside an include', async () => {
    const exp = await walk({
      'example.org': { TXT: [['v=spf1 include:inc.example.org redirect=r1.example.org']] },
      'inc.example.org': { TXT: [['v=spf1 redirect=other.example.org']] },
      'other.example.org': { TXT: [['v=spf1 +all']] },
      'r1.example.org': { TXT: [['v=spf1 redirect=r2.example.org']] },
      'r2.example.org': { TXT: [['v=spf1 -all']] },
    });
    expect(exp).toMatchObject({ lookups: 4, effective_all: '-', complete: true });
    expect(
      (await walk({ 'example.org': { TXT: [['v=spf1 redirect=%{d}._spf.example.net']] } })).effective_all,
    ).toBeNull();
    expect((await walk({ 'example.org': { TXT: [['v=spf1 redirect=gone.example.org']] } })).effective_all).toBeNull();
  });

  it('stops asking at the tenth lookup, counts the rest, and marks the walk incomplete', async () => {
    const asked: string[] = [];
    const q = querier({ 'example.org': { TXT: [['v=spf1 include:example.org -all']] } }, asked);
    const exp = await expandSpf(q, await collectSpf(q, 'example.org'));
    expect(exp).toMatchObject({ lookups: 11, complete: false });
    expect(exp.targets).toHaveLength(10);
    expect(asked).toEqual(['example.org TXT']);
    const ptr = await walk({ 'example.org': { TXT: [['v=spf1 ptr ptr:example.net -all']] } });
    expect(ptr).toEqual({ lookups: 2, effective_all: '-', complete: true, targets: [] });
  });

  it('has nothing to walk without exactly one record', async () => {
    expect(await walk({ 'example.org': { TXT: [['v=spf1 -all'], ['v=spf1 a -all']] } })).toEqual({
      lookups: null,
      effective_all: null,
      complete: null,
      targets: [],
    });
  });
});
