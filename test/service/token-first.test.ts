// Issue 13 item 7: a Full Validation looks at the token before it resolves anything. Requests with bogus,
// unknown or spent tokens make no DNS query at all; only a usable token buys DNS work. The resolver here is a
// counting relay in front of the fixture internet's.
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiWorld, startTestService, type TestService } from '../server/harness.ts';

interface CountingResolver {
  port: number;
  queries: number;
  close(): void;
}

/** A UDP relay to the world's resolver that counts the queries it passes on. */
async function countingResolver(upstreamPort: number): Promise<CountingResolver> {
  const front = dgram.createSocket('udp4');
  const relay: CountingResolver = { port: 0, queries: 0, close: () => front.close() };
  front.on('message', (msg, client) => {
    relay.queries++;
    const up = dgram.createSocket('udp4');
    up.on('message', (answer) => {
      front.send(answer, client.port, client.address);
      up.close();
    });
    up.send(msg, upstreamPort, '127.0.0.1');
  });
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', resolve));
  relay.port = front.address().port;
  return relay;
}

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let resolver: CountingResolver;
let svc: TestService;

beforeAll(async () => {
  world = await startApiWorld();
  resolver = await countingResolver(world.dnsPort);
  svc = await startTestService({ ...world.env, DVS_DNS_SERVERS: `127.0.0.1:${resolver.port}` });
});

afterAll(async () => {
  await svc?.stop();
  resolver?.close();
  await world?.stop();
  world?.removeSites();
});

describe('the token comes before DNS', () => {
  it('makes no DNS query for 50 requests with tokens that are unknown or badly formed', async () => {
    const before = resolver.queries;
    for (let i = 0; i < 50; i++) {
      const token = i % 2 ? `tok_bogus_${i}` : 'dvs_test_' + String(i).padStart(43, 'x');
      const res = await svc.post('/api/fullvalidation', { domain: `host${i}.nxdomain.test`, payment_token: token });
      expect(res.status, res.text).toBe(402);
    }
    expect(resolver.queries - before).toBe(0);
  });

  it('resolves the domain once the token is usable, and keeps the token when the domain has nothing to scan', async () => {
    const token = svc.gate.issue();
    const before = resolver.queries;
    const res = await svc.post('/api/fullvalidation', { domain: 'nxdomain.test', payment_token: token });
    expect(res.status).toBe(200);
    expect((res.json() as { isError?: boolean }).isError).toBe(true);
    expect(resolver.queries - before).toBeGreaterThan(0);
    expect(svc.gate.state(token)).toBe('unused');
  });
});
