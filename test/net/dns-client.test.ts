import { describe, it, expect, afterEach } from 'vitest';
import fc from 'fast-check';
import dnsPacket from 'dns-packet';
import { createDnsClient, parseDnsServer } from '../../src/net/dns-client.ts';
import { decodeSvcb, encodeSvcb, type SvcbData } from '../../src/net/svcb-codec.ts';
import { NetError } from '../../src/net/types.ts';
import { startDnsServer, zone, a, type DnsServer } from './local-servers.ts';

let server: DnsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const https = (name: string, data: SvcbData): dnsPacket.Answer =>
  ({ type: 'UNKNOWN_65', name, ttl: 300, data: encodeSvcb(data) }) as unknown as dnsPacket.Answer;

describe('SVCB/HTTPS codec', () => {
  it('decodes every parameter it knows and keeps unknown keys as hex', () => {
    const data: SvcbData = {
      priority: 1,
      target: '.',
      mandatory: ['alpn'],
      alpn: ['h3', 'h2'],
      no_default_alpn: true,
      port: 8443,
      ipv4hint: ['192.0.2.10', '192.0.2.11'],
      ech: true,
      ipv6hint: ['2001:db8::1'],
      key65000: 'beef',
    };
    expect(decodeSvcb(encodeSvcb(data))).toEqual(data);
  });

  it('round-trips any well-formed record', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    const record = fc.record(
      {
        priority: fc.integer({ min: 0, max: 65535 }),
        target: fc.oneof(
          fc.constant('.'),
          fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.')),
        ),
        alpn: fc.array(fc.constantFrom('h2', 'h3', 'http/1.1'), { minLength: 1, maxLength: 3 }),
        port: fc.integer({ min: 0, max: 65535 }),
        ipv4hint: fc.array(fc.ipV4(), { minLength: 1, maxLength: 3 }),
        ipv6hint: fc.array(
          fc.ipV6().map((v) => decodeSvcb(encodeSvcb({ priority: 1, target: '.', ipv6hint: [v] })).ipv6hint![0]!),
          { minLength: 1, maxLength: 2 },
        ),
        ech: fc.constant(true as const),
        no_default_alpn: fc.constant(true as const),
      },
      { requiredKeys: ['priority', 'target'] },
    );
    fc.assert(
      fc.property(record, (data) => {
        expect(decodeSvcb(encodeSvcb(data as SvcbData))).toEqual(data);
      }),
    );
  });

  it('rejects truncated RDATA', () => {
    const wire = encodeSvcb({ priority: 1, target: 'svc.example', alpn: ['h2'] });
    expect(() => decodeSvcb(wire.subarray(0, wire.length - 1))).toThrow(/truncated/);
  });
});

describe('DNS client', () => {
  it('decodes the record types probes use into plain JSON', async () => {
    server = await startDnsServer(
      zone({
        'good.test|A': [a('good.test', '127.0.0.9')],
        'good.test|AAAA': [{ type: 'AAAA', name: 'good.test', ttl: 60, data: '0:0:0:0:0:0:0:1' }],
        'good.test|TXT': [
          { type: 'TXT', name: 'good.test', ttl: 60, data: ['v=spf1 ', '-all'] },
          { type: 'TXT', name: 'good.test', ttl: 60, data: 'héllo' },
        ],
        'good.test|MX': [
          { type: 'MX', name: 'good.test', ttl: 60, data: { preference: 10, exchange: 'Mail.Good.Test.' } },
        ],
        'good.test|CAA': [
          { type: 'CAA', name: 'good.test', ttl: 60, data: { flags: 128, tag: 'issue', value: 'letsencrypt.org' } },
        ],
        'good.test|SOA': [
          {
            type: 'SOA',
            name: 'good.test',
            ttl: 60,
            data: {
              mname: 'ns1.good.test',
              rname: 'hostmaster.good.test',
              serial: 7,
              refresh: 3600,
              retry: 600,
              expire: 86400,
              minimum: 300,
            },
          },
        ],
        'good.test|DS': [
          {
            type: 'DS',
            name: 'good.test',
            ttl: 60,
            data: { keyTag: 12345, algorithm: 13, digestType: 2, digest: Buffer.from('abcd', 'hex') },
          },
        ],
        'good.test|DNSKEY': [
          { type: 'DNSKEY', name: 'good.test', ttl: 60, data: { flags: 257, algorithm: 13, key: Buffer.alloc(64, 1) } },
        ],
        'good.test|NS': [{ type: 'NS', name: 'good.test', ttl: 60, data: 'NS1.good.test' }],
        'good.test|UNKNOWN_65': [https('good.test', { priority: 1, target: '.', alpn: ['h2'] })],
        'www.good.test|CNAME': [{ type: 'CNAME', name: 'www.good.test', ttl: 60, data: 'good.test' }],
      }),
    );
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 2000 });
    const data = async (type: Parameters<typeof dns.query>[1], name = 'good.test') =>
      (await dns.query(name, type)).answers.map((r) => r.data);

    expect(await data('A')).toEqual(['127.0.0.9']);
    expect(await data('AAAA')).toEqual(['::1']);
    expect(await data('TXT')).toEqual([['v=spf1 ', '-all'], ['héllo']]);
    expect(await data('MX')).toEqual([{ preference: 10, exchange: 'mail.good.test' }]);
    expect(await data('CAA')).toEqual([{ flags: 128, tag: 'issue', value: 'letsencrypt.org' }]);
    expect(await data('SOA')).toEqual([
      {
        mname: 'ns1.good.test',
        rname: 'hostmaster.good.test',
        serial: 7,
        refresh: 3600,
        retry: 600,
        expire: 86400,
        minimum: 300,
      },
    ]);
    expect(await data('DS')).toEqual([{ key_tag: 12345, algorithm: 13, digest_type: 2, digest: 'abcd' }]);
    expect(await data('DNSKEY')).toEqual([{ flags: 257, protocol: 3, algorithm: 13 }]);
    expect(await data('NS')).toEqual(['ns1.good.test']);
    expect(await data('HTTPS')).toEqual([{ priority: 1, target: '.', alpn: ['h2'] }]);
    const cname = await dns.query('WWW.Good.Test.', 'CNAME');
    expect(cname.answers).toEqual([{ name: 'www.good.test', type: 'CNAME', ttl: 60, data: 'good.test' }]);
    const https65 = await dns.query('good.test', 'HTTPS');
    expect(https65.answers[0]).toMatchObject({ name: 'good.test', type: 'HTTPS', ttl: 300 });
  });

  it('reports the rcode and the AD, AA and TC flags, and sets DO only when asked', async () => {
    server = await startDnsServer((q) =>
      q.name === 'gone.test'
        ? { rcode: 3, flags: dnsPacket.AUTHORITATIVE_ANSWER }
        : { answers: [a(q.name, '127.0.0.9')], flags: dnsPacket.AUTHENTIC_DATA },
    );
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 2000 });
    const gone = await dns.query('gone.test', 'A');
    expect(gone).toMatchObject({
      rcode: 'NXDOMAIN',
      flags: { ad: false, aa: true, tc: false },
      answers: [],
      server: server.server,
    });
    const signed = await dns.query('signed.test', 'A', { dnssecOk: true });
    expect(signed).toMatchObject({ rcode: 'NOERROR', flags: { ad: true, aa: false } });
    await dns.query('plain.test', 'A');
    expect(server.queries.map((q) => [q.name, q.dnssecOk])).toEqual([
      ['gone.test', false],
      ['signed.test', true],
      ['plain.test', false],
    ]);
  });

  it('asks again over TCP when the UDP answer is truncated, and over TCP directly when told', async () => {
    server = await startDnsServer((q) => ({ answers: [a(q.name, '127.0.0.9')], truncateUdp: true }));
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 2000 });
    const response = await dns.query('big.test', 'A');
    expect(response.answers.map((r) => r.data)).toEqual(['127.0.0.9']);
    expect(response.flags.tc).toBe(false);
    expect(server.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
    await dns.query('direct.test', 'A', { tcp: true });
    expect(server.queries.at(-1)).toMatchObject({ name: 'direct.test', transport: 'tcp' });
  });

  it('ignores an answer with the wrong id and takes the real one', async () => {
    server = await startDnsServer((q) => ({
      answers: [a(q.name, '127.0.0.9')],
      spoofFirst: [a(q.name, '127.0.0.66')],
    }));
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 2000 });
    expect((await dns.query('spoofed.test', 'A')).answers.map((r) => r.data)).toEqual(['127.0.0.9']);
  });

  it('gives dns_timeout when the server never answers', async () => {
    server = await startDnsServer(() => ({ silent: true }));
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 300 });
    const started = Date.now();
    const err = await dns.query('silent.test', 'A').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetError);
    expect((err as NetError).code).toBe('dns_timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('gives aborted when the caller aborts', async () => {
    server = await startDnsServer(() => ({ silent: true }));
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 5000 });
    const controller = new AbortController();
    const pending = dns.query('silent.test', 'A', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('refuses an invalid name without sending anything', async () => {
    server = await startDnsServer(() => ({}));
    const dns = createDnsClient({ servers: [server.server], timeoutMs: 1000 });
    await expect(dns.query(`${'a'.repeat(64)}.test`, 'A')).rejects.toMatchObject({ code: 'dns_error' });
    await expect(dns.query('a..test', 'A')).rejects.toMatchObject({ code: 'dns_error' });
    expect(server.queries).toEqual([]);
  });

  it('parses resolver addresses in the shapes config and the system give', () => {
    expect(parseDnsServer('127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353, family: 4 });
    expect(parseDnsServer('9.9.9.9')).toEqual({ host: '9.9.9.9', port: 53, family: 4 });
    expect(parseDnsServer('[::1]:53')).toEqual({ host: '::1', port: 53, family: 6 });
    expect(parseDnsServer('2620:fe::fe')).toEqual({ host: '2620:fe::fe', port: 53, family: 6 });
    expect(() => parseDnsServer('dns.example:53')).toThrow(/not an IP address/);
  });
});
