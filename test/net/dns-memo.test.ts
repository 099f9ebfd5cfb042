// The per-scan DNS memo: one query per name and type, DNSSEC records only for the callers that asked for
// them, and a shared query cancelled only when every caller has given up.
import { afterEach, describe, expect, it } from 'vitest';
import type dnsPacket from 'dns-packet';
import { createDnsClient } from '../../src/net/dns-client.ts';
import { memoiseDns } from '../../src/net/dns-memo.ts';
import { startDnsServer, a, type DnsScript, type DnsServer } from './local-servers.ts';

let server: DnsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const rrsig: dnsPacket.Answer = {
  type: 'RRSIG',
  name: 'site.test',
  ttl: 60,
  data: {
    typeCovered: 'A',
    algorithm: 13,
    labels: 2,
    originalTTL: 60,
    expiration: 1_900_000_000,
    inception: 1_700_000_000,
    keyTag: 4242,
    signersName: 'site.test',
    signature: Buffer.alloc(64, 1),
  },
};

async function memoOn(script: DnsScript, timeoutMs = 1000) {
  server = await startDnsServer(script);
  return memoiseDns(createDnsClient({ servers: [server.server], timeoutMs }));
}

describe('per-scan DNS memo', () => {
  it('asks each name and type once, with DO, and strips DNSSEC records for callers without it', async () => {
    const dns = await memoOn((q) => ({ answers: q.dnssecOk ? [a('site.test', '127.0.0.2'), rrsig] : [] }));
    const [plain, again, signed] = await Promise.all([
      dns.query('site.test', 'A'),
      dns.query('Site.Test.', 'A', { signal: new AbortController().signal }),
      dns.query('site.test', 'A', { dnssecOk: true }),
    ]);
    await dns.query('site.test', 'A');
    expect(server!.queries).toEqual([{ name: 'site.test', type: 'A', transport: 'udp', dnssecOk: true }]);
    expect(plain.answers.map((r) => r.type)).toEqual(['A']);
    expect(again).toEqual(plain);
    expect(signed.answers.map((r) => r.type)).toEqual(['A', 'RRSIG']);
    // Another type, or another transport, is another question.
    await dns.query('site.test', 'AAAA');
    await dns.query('site.test', 'A', { tcp: true });
    expect(server!.queries.map((q) => `${q.type} ${q.transport}`)).toEqual(['A udp', 'AAAA udp', 'A tcp']);
  });

  it('keeps a failure for the scan: a resolver that does not answer costs one timeout', async () => {
    const dns = await memoOn(() => ({ silent: true }), 200);
    await expect(dns.query('site.test', 'A')).rejects.toMatchObject({ code: 'dns_timeout' });
    await expect(dns.query('site.test', 'A')).rejects.toMatchObject({ code: 'dns_timeout' });
    expect(new Set(server!.queries.map((q) => q.name))).toEqual(new Set(['site.test']));
    const sent = server!.queries.length;
    await expect(dns.query('site.test', 'A')).rejects.toMatchObject({ code: 'dns_timeout' });
    expect(server!.queries.length).toBe(sent);
  });

  it('one caller giving up does not fail another', async () => {
    const dns = await memoOn(() => ({ answers: [a('site.test', '127.0.0.2')] }));
    const quitter = new AbortController();
    const first = dns.query('site.test', 'A', { signal: quitter.signal });
    const second = dns.query('site.test', 'A', { signal: new AbortController().signal });
    quitter.abort();
    await expect(first).rejects.toMatchObject({ code: 'aborted' });
    expect((await second).answers).toHaveLength(1);
    expect(server!.queries).toHaveLength(1);
  });

  it('cancels the query when every caller has given up, and a later caller asks afresh', async () => {
    const dns = await memoOn(
      (_q, count) => (count === 1 ? { silent: true } : { answers: [a('site.test', '127.0.0.2')] }),
      5000,
    );
    const controllers = [new AbortController(), new AbortController()];
    const waiting = controllers.map((c) => dns.query('site.test', 'A', { signal: c.signal }));
    await new Promise((r) => setTimeout(r, 50));
    controllers.forEach((c) => c.abort());
    for (const w of waiting) await expect(w).rejects.toMatchObject({ code: 'aborted' });
    // Had the silent query been kept, this would wait for it and time out instead of asking again.
    expect((await dns.query('site.test', 'A')).answers).toHaveLength(1);
    expect(server!.queries).toHaveLength(2);
  });
});
