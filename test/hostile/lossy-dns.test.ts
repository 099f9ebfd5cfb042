// A resolver behind a lossy path: the first datagram of every question is lost. The DNS client must send the
// question again within its time limit instead of failing the lookup, because the resolver keeps a failed
// lookup for the whole scan, so one lost datagram would otherwise leave a full scan with nothing observed.
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { createNet } from '../../src/net/index.ts';

const ADDRESS = '127.77.9.9';
let server: dgram.Socket;
const seen = new Map<string, number>();

beforeAll(async () => {
  server = dgram.createSocket('udp4');
  server.on('message', (msg, rinfo) => {
    const query = dnsPacket.decode(msg);
    const q = query.questions![0]!;
    const key = `${query.id} ${q.name} ${q.type}`;
    const copies = (seen.get(key) ?? 0) + 1;
    seen.set(key, copies);
    if (copies === 1) return;
    const answers: dnsPacket.Answer[] =
      q.type === 'A' ? [{ type: 'A', name: q.name, ttl: 60, class: 'IN', data: ADDRESS }] : [];
    const flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE;
    server.send(
      dnsPacket.encode({ type: 'response', id: query.id, flags, questions: [q], answers }),
      rinfo.port,
      rinfo.address,
    );
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('answers a lookup whose first datagram was lost, by sending the question again', async () => {
  const { port } = server.address();
  const net = createNet(
    loadConfig({
      DVS_DNS_SERVERS: `127.0.0.1:${port}`,
      DVS_ALLOW_NETWORKS: '127.77.0.0/16',
      DVS_DNS_TIMEOUT_MS: '3000',
      DVS_EXTRA_SUFFIXES: 'test',
    }),
  );
  expect(await net.resolve('lossy.test')).toEqual([{ address: ADDRESS, family: 4 }]);
  expect(seen.get([...seen.keys()].find((k) => k.endsWith('lossy.test A'))!)).toBeGreaterThanOrEqual(2);
});
