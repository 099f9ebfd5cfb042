import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Resolver } from 'node:dns/promises';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorld, type World } from './index.ts';
import { query, rcodeOf } from './dns-client.ts';
import { decodeSvcb } from './svcb.ts';
import { SOA_DEFAULTS } from './zones.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sites');

// Only the fixture sites: the real sites (good.test above all) keep changing with the rules.
let fixtures: World;
beforeAll(async () => {
  fixtures = await startWorld({ sitesDir: FIXTURES });
});
afterAll(async () => {
  await fixtures?.stop();
});

const answersOf = (p: DecodedPacket | null) => p?.answers ?? [];
const dataOf = (p: DecodedPacket | null) => answersOf(p).map((a) => (a as { data: unknown }).data);

describe.each(['udp', 'tcp'] as const)('the world resolver over %s', (transport) => {
  const ask = (name: string, type: string) => query(fixtures.dnsPort, name, type, { transport });

  it('answers A for the site and its alias with the site address', async () => {
    const site = fixtures.sites.find((s) => s.name === 'canonical')!;
    expect(dataOf(await ask('canonical.test', 'A'))).toEqual([site.address]);
    expect(dataOf(await ask('www.canonical.test', 'A'))).toEqual([site.address]);
  });

  it('answers two NS whose addresses lie in distinct networks', async () => {
    const ns = dataOf(await ask('canonical.test', 'NS')) as string[];
    expect(ns.sort()).toEqual(['ns1.canonical.test', 'ns2.canonical.test']);
    const addresses = await Promise.all(ns.map(async (n) => dataOf(await ask(n, 'A'))[0] as string));
    const networks = new Set(addresses.map((a) => a.split('.').slice(0, 3).join('.')));
    expect(networks.size).toBe(2);
  });

  it('answers the SOA with the world defaults', async () => {
    expect(dataOf(await ask('canonical.test', 'SOA'))).toEqual([
      { mname: 'ns1.canonical.test', rname: 'hostmaster.canonical.test', ...SOA_DEFAULTS },
    ]);
  });

  it('answers MX, TXT, CAA, DS and DNSKEY as the site defines them', async () => {
    expect(dataOf(await ask('dnsdata.test', 'MX'))).toEqual([{ preference: 10, exchange: 'mail.dnsdata.test' }]);
    expect(dataOf(await ask('dnsdata.test', 'TXT')).map((t) => (t as Buffer[]).map(String))).toEqual([
      ['v=spf1 mx -all'],
    ]);
    expect(dataOf(await ask('_dmarc.dnsdata.test', 'TXT')).map((t) => (t as Buffer[]).map(String).join(''))).toEqual([
      'v=DMARC1; p=reject',
    ]);
    const caa = dataOf(await ask('dnsdata.test', 'CAA')) as { tag: string; value: string; flags: number }[];
    expect(caa.map((c) => [c.flags, c.tag, c.value])).toEqual([
      [0, 'issue', 'ca.test; accounturi=https://ca.test/acct/1'],
      [0, 'iodef', 'mailto:security@dnsdata.test'],
    ]);
    const [ds] = dataOf(await ask('dnsdata.test', 'DS')) as { keyTag: number; digestType: number; digest: Buffer }[];
    expect(ds!.keyTag).toBe(23289);
    expect(ds!.digest.toString('hex')).toMatch(/^dcf0c21b/);
    const [key] = dataOf(await ask('dnsdata.test', 'DNSKEY')) as { flags: number; algorithm: number; key: Buffer }[];
    expect([key!.flags, key!.algorithm, key!.key.length]).toEqual([257, 13, 64]);
  });

  it('encodes HTTPS and SVCB records with every parameter', async () => {
    const https = dataOf(await ask('dnsdata.test', 'UNKNOWN_65')) as Buffer[];
    expect(https.map(decodeSvcb)).toEqual([{ priority: 1, target: '.', alpn: ['h2', 'http/1.1'], ech: 'AEX+DQA=' }]);
    const svcb = dataOf(await query(fixtures.dnsPort, '_svc.basic.test', 'UNKNOWN_64', { transport })) as Buffer[];
    expect(svcb.map(decodeSvcb)).toEqual([
      {
        priority: 2,
        target: 'svc.basic.test',
        alpn: ['h3', 'h2'],
        no_default_alpn: true,
        port: 8443,
        ipv4hint: ['127.0.20.1', '127.0.20.2'],
        ech: 'AEX+DQA=',
        ipv6hint: ['::1'],
      },
    ]);
  });

  it('sets AD only for zones that say so', async () => {
    expect((await ask('dnsdata.test', 'A'))!.flags! & dnsPacket.AUTHENTIC_DATA).toBeTruthy();
    expect((await query(fixtures.dnsPort, 'basic.test', 'A', { transport }))!.flags! & dnsPacket.AUTHENTIC_DATA).toBe(
      0,
    );
  });

  it('answers NXDOMAIN with the SOA for an unknown name in a zone, and without for an unknown zone', async () => {
    const inZone = (await ask('nope.dnsdata.test', 'A'))!;
    expect(rcodeOf(inZone)).toBe('NXDOMAIN');
    expect(inZone.authorities!.map((a) => a.type)).toEqual(['SOA']);
    const noZone = (await ask('unknown-zone.test', 'A'))!;
    expect(rcodeOf(noZone)).toBe('NXDOMAIN');
    expect(noZone.authorities).toEqual([]);
  });

  it('answers NODATA with the SOA when the name has no record of the type', async () => {
    const r = (await ask('dnsdata.test', 'AAAA'))!;
    expect(rcodeOf(r)).toBe('NOERROR');
    expect(r.answers).toEqual([]);
    expect(r.authorities!.map((a) => a.type)).toEqual(['SOA']);
  });

  it('applies the zone behaviours nxdomain and timeout', async () => {
    expect(rcodeOf((await ask('gone.test', 'A'))!)).toBe('NXDOMAIN');
    expect(rcodeOf((await ask('www.gone.test', 'TXT'))!)).toBe('NXDOMAIN');
    expect(await query(fixtures.dnsPort, 'timeout.test', 'A', { transport, timeoutMs: 300 })).toBeNull();
  });

  it('never answers on the dead resolver', async () => {
    expect(await query(fixtures.deadDnsPort, 'dnsdata.test', 'A', { transport, timeoutMs: 300 })).toBeNull();
  });
});

describe('zone contents built from site records', () => {
  const ask = (name: string, type: string) => query(fixtures.dnsPort, name, type);

  it('follows CNAME chains inside the world and keeps the NXDOMAIN of a dangling one', async () => {
    const r = (await ask('alias.basic.test', 'A'))!;
    expect(r.answers!.map((a) => [a.name, a.type])).toEqual([
      ['alias.basic.test', 'CNAME'],
      ['www.basic.test', 'A'],
    ]);
    const dangling = (await ask('dangling.basic.test', 'A'))!;
    expect(rcodeOf(dangling)).toBe('NXDOMAIN');
    expect(dangling.answers!.map((a) => a.type)).toEqual(['CNAME']);
  });

  it('answers a wildcard below its closest encloser', async () => {
    expect(dataOf(await ask('anything.wild.basic.test', 'A'))).toEqual(['127.0.20.9']);
  });

  it('treats empty non-terminals as existing names', async () => {
    expect(rcodeOf((await ask('nonterminal.basic.test', 'TXT'))!)).toBe('NOERROR');
  });

  it('lets a site replace the generated NS and SOA, and keeps multi-string TXT in one record', async () => {
    expect(dataOf(await ask('basic.test', 'NS'))).toEqual(['ns.elsewhere.test']);
    expect(dataOf(await ask('basic.test', 'SOA'))).toMatchObject([
      { serial: 7, minimum: 60, refresh: SOA_DEFAULTS.refresh },
    ]);
    expect(dataOf(await ask('multi.basic.test', 'TXT')).map((t) => (t as Buffer[]).map(String))).toEqual([
      ['first', 'second'],
    ]);
  });

  it('splits TXT strings longer than 255 bytes', async () => {
    const [strings] = dataOf(await ask('long.basic.test', 'TXT')) as Buffer[][];
    expect(strings!.map((s) => s.length)).toEqual([255, 45]);
  });

  it('gives AAAA ::1 to ipv6 sites and serves an alias outside the domain as a zone of its own', async () => {
    expect(dataOf(await ask('basic.test', 'AAAA'))).toEqual(['::1']);
    const basic = fixtures.sites.find((s) => s.name === 'basic')!;
    expect(dataOf(await ask('basic-alias.test', 'A'))).toEqual([basic.address]);
    expect(dataOf(await ask('basic-alias.test', 'SOA'))).toHaveLength(1);
  });

  it('answers SERVFAIL and REFUSED for zones with those behaviours', async () => {
    expect(rcodeOf((await ask('servfail.test', 'A'))!)).toBe('SERVFAIL');
    expect(rcodeOf((await ask('refused.test', 'A'))!)).toBe('REFUSED');
  });
});

describe('EDNS and truncation', () => {
  it('answers with OPT when the query has one, echoing the DO bit', async () => {
    const r = (await query(fixtures.dnsPort, 'dnsdata.test', 'A', { edns: 1232, dnssecOk: true }))!;
    const opt = r.additionals!.find((a) => a.type === 'OPT') as { udpPayloadSize: number; flags: number } | undefined;
    expect(opt?.udpPayloadSize).toBe(1232);
    expect(opt!.flags & dnsPacket.DNSSEC_OK).toBeTruthy();
    const plain = (await query(fixtures.dnsPort, 'dnsdata.test', 'A'))!;
    expect(plain.additionals).toEqual([]);
  });

  it('sets TC and drops the records when the UDP answer exceeds 512 bytes without EDNS', async () => {
    const r = (await query(fixtures.dnsPort, 'big.basic.test', 'TXT'))!;
    expect(r.flags! & dnsPacket.TRUNCATED_RESPONSE).toBeTruthy();
    expect(r.answers).toEqual([]);
  });

  it('respects the advertised EDNS size and never truncates over TCP', async () => {
    const small = (await query(fixtures.dnsPort, 'big.basic.test', 'TXT', { edns: 600 }))!;
    expect(small.flags! & dnsPacket.TRUNCATED_RESPONSE).toBeTruthy();
    const large = (await query(fixtures.dnsPort, 'big.basic.test', 'TXT', { edns: 4096 }))!;
    expect(large.flags! & dnsPacket.TRUNCATED_RESPONSE).toBe(0);
    expect(large.answers).toHaveLength(20);
    const tcp = (await query(fixtures.dnsPort, 'big.basic.test', 'TXT', { transport: 'tcp' }))!;
    expect(tcp.flags! & dnsPacket.TRUNCATED_RESPONSE).toBe(0);
    expect(tcp.answers).toHaveLength(20);
  });
});

describe('a stock resolver pointed at the world', () => {
  it('resolves through node:dns, falling back to TCP for truncated answers', async () => {
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([fixtures.env.DVS_DNS_SERVERS!]);
    expect(await resolver.resolveTxt('dnsdata.test')).toEqual([['v=spf1 mx -all']]);
    expect((await resolver.resolveSoa('dnsdata.test')).hostmaster).toBe('hostmaster.dnsdata.test');
    await expect(resolver.resolve4('nope.dnsdata.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(await resolver.resolveTxt('big.basic.test')).toHaveLength(20);
  });
});
