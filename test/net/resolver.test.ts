import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createDnsClient } from '../../src/net/dns-client.ts';
import { createResolver } from '../../src/net/resolver.ts';
import { createAddressPolicy } from '../../src/net/address-policy.ts';
import { startDnsServer, zone, a, type DnsServer } from './local-servers.ts';

let server: DnsServer;
beforeAll(async () => {
  server = await startDnsServer((q, count) => {
    if (q.name === 'broken.test') return { rcode: 2 };
    if (q.name === 'closed.test') return { rcode: 5 };
    if (q.name === 'flaky.test') return count === 1 ? { rcode: 2 } : { answers: [a('flaky.test', '127.0.0.5')] };
    return zone({
      'site.test|A': [a('site.test', '127.0.0.2')],
      'site.test|AAAA': [{ type: 'AAAA', name: 'site.test', ttl: 60, data: '::1' }],
      'www.site.test|A': [
        { type: 'CNAME', name: 'www.site.test', ttl: 60, data: 'edge.site.test' },
        { type: 'CNAME', name: 'edge.site.test', ttl: 60, data: 'site.test' },
        a('site.test', '127.0.0.2'),
        a('unrelated.test', '127.0.0.66'),
      ],
      'www.site.test|AAAA': [{ type: 'CNAME', name: 'www.site.test', ttl: 60, data: 'site.test' }],
      'mixed.test|A': [a('mixed.test', '127.0.0.3'), a('mixed.test', '127.0.0.2')],
      'mixed.test|AAAA': [],
      'mail.test|MX': [{ type: 'MX', name: 'mail.test', ttl: 60, data: { preference: 1, exchange: 'mx.mail.test' } }],
      'public.test|A': [a('public.test', '93.184.216.34')],
      'public.test|AAAA': [],
    })(q, count);
  });
});
afterAll(() => server.close());

const resolverWith = (allow: string[]) =>
  createResolver(createDnsClient({ servers: [server.server], timeoutMs: 1000 }), createAddressPolicy(allow));

describe('resolver', () => {
  it('returns the policy-checked A and AAAA addresses', async () => {
    const resolver = resolverWith(['127.0.0.0/8', '::1/128']);
    expect(await resolver.resolve('Site.Test.')).toEqual([
      { address: '127.0.0.2', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('refuses loopback unless allowNetworks widens the policy', async () => {
    await expect(resolverWith([]).resolve('site.test')).rejects.toMatchObject({ code: 'policy_refused' });
    expect(await resolverWith(['127.0.0.2/32']).resolve('site.test')).toEqual([{ address: '127.0.0.2', family: 4 }]);
  });

  it('follows the CNAME chain inside the answer and ignores records for other names', async () => {
    expect(await resolverWith(['127.0.0.0/8']).resolve('www.site.test')).toEqual([{ address: '127.0.0.2', family: 4 }]);
  });

  it('keeps only the allowed addresses of a host that has both kinds', async () => {
    expect(await resolverWith(['127.0.0.2/32']).resolve('mixed.test')).toEqual([{ address: '127.0.0.2', family: 4 }]);
  });

  it('allows public addresses with no configuration', async () => {
    expect(await resolverWith([]).resolve('public.test')).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('turns DNS failures into precise codes', async () => {
    const resolver = resolverWith(['127.0.0.0/8']);
    await expect(resolver.resolve('missing.test')).rejects.toMatchObject({ code: 'dns_nxdomain' });
    await expect(resolver.resolve('mail.test')).rejects.toMatchObject({ code: 'dns_nodata' });
    await expect(resolver.resolve('broken.test')).rejects.toMatchObject({ code: 'dns_servfail' });
    await expect(resolver.resolve('closed.test')).rejects.toMatchObject({ code: 'dns_refused' });
  });

  it('keeps the outcome for the scan, a failure too: one view of DNS per scan', async () => {
    const resolver = resolverWith(['127.0.0.0/8']);
    await expect(resolver.resolve('flaky.test')).rejects.toMatchObject({ code: 'dns_servfail' });
    const before = server.queries.filter((q) => q.name === 'flaky.test').length;
    await expect(resolver.resolve('flaky.test')).rejects.toMatchObject({ code: 'dns_servfail' });
    expect(server.queries.filter((q) => q.name === 'flaky.test').length).toBe(before);
    // The next scan (a new resolver) asks again, and sees the server's second answer.
    expect(await resolverWith(['127.0.0.0/8']).resolve('flaky.test')).toEqual([{ address: '127.0.0.5', family: 4 }]);
  });

  it('shares one lookup between concurrent callers', async () => {
    const resolver = resolverWith(['127.0.0.0/8']);
    const before = server.queries.filter((q) => q.name === 'mixed.test').length;
    await Promise.all([resolver.resolve('mixed.test'), resolver.resolve('mixed.test'), resolver.resolve('mixed.test')]);
    expect(server.queries.filter((q) => q.name === 'mixed.test').length - before).toBe(2);
  });

  it('checks IP literals without DNS and refuses odd spellings', async () => {
    const resolver = resolverWith(['127.0.0.0/8']);
    const before = server.queries.length;
    expect(await resolver.resolve('127.0.0.9')).toEqual([{ address: '127.0.0.9', family: 4 }]);
    await expect(resolver.resolve('2130706433')).rejects.toMatchObject({ code: 'policy_refused' });
    await expect(resolver.resolve('0x7f.0.0.1')).rejects.toMatchObject({ code: 'policy_refused' });
    await expect(resolverWith([]).resolve('[::1]')).rejects.toMatchObject({ code: 'policy_refused' });
    expect(server.queries.length).toBe(before);
  });

  it('checks an address a caller picks itself', () => {
    expect(resolverWith([]).checkAddress({ address: '93.184.216.34', family: 4 })).toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    expect(() => resolverWith([]).checkAddress({ address: '10.0.0.1', family: 4 })).toThrow(
      /no address this service may connect to/,
    );
  });
});
