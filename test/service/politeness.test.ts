// Politeness to scanned sites: places per registrable domain and per address, all or none, given back once;
// through Redis one limit for every instance, with places that lapse when their holder died; while Redis is
// away, each instance keeps the limits for itself.
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.ts';
import { LocalPoliteness, RedisPoliteness, type PolitenessLimits } from '../../src/service/politeness.ts';
import { RedisConnection } from '../../src/service/redis-connection.ts';
import { deadRedisUrl, REDIS_URL, redisReachable, removeKeys, testPrefix } from './shared-state-fixtures.ts';

const reachable = await redisReachable();
const silent = createLogger({ logLevel: 'silent' });
const LIMITS: PolitenessLimits = { perSite: 2, perAddress: 3, leaseMs: 60_000 };
const prefix = testPrefix();

afterAll(async () => {
  if (reachable) await removeKeys(prefix);
});

describe('politeness in process', () => {
  it('holds each site and address to its limit, takes all places or none, and gives them back once', async () => {
    const p = new LocalPoliteness(LIMITS);
    const a = await p.tryAcquire('example.com', ['192.0.2.1']);
    const b = await p.tryAcquire('example.com', ['192.0.2.2']);
    expect(a && b).toBeTruthy();
    expect(await p.tryAcquire('example.com', ['192.0.2.3'])).toBeNull();
    // Another site on an address with room: taken; the third on 192.0.2.1 fills it.
    const c = await p.tryAcquire('example.org', ['192.0.2.1']);
    const d = await p.tryAcquire('example.net', ['192.0.2.1']);
    expect(c && d).toBeTruthy();
    expect(await p.tryAcquire('example.info', ['192.0.2.1', '192.0.2.9'])).toBeNull();
    // Refused whole: 192.0.2.9 was not taken by the refused call.
    for (let i = 0; i < 3; i++) expect(await p.tryAcquire(`s${i}.example`, ['192.0.2.9'])).toBeTruthy();
    await a!();
    await a!();
    expect(await p.tryAcquire('example.com', [])).toBeTruthy();
    expect(await p.tryAcquire('example.com', [])).toBeNull();
  });
});

describe.skipIf(!reachable)('politeness through Redis', () => {
  it('is one limit for every instance, and places of a dead holder lapse with their lease', async () => {
    const connections = [new RedisConnection(REDIS_URL, silent), new RedisConnection(REDIS_URL, silent)];
    // Long enough that a loaded machine cannot let places lapse between one call and the next.
    const leaseMs = 1_500;
    try {
      const [one, two] = connections.map(
        (c) => new RedisPoliteness(c, { ...LIMITS, leaseMs }, new LocalPoliteness(LIMITS), `${prefix}p:`),
      ) as [RedisPoliteness, RedisPoliteness];
      const first = await one.tryAcquire('example.com', ['192.0.2.1']);
      expect(first).toBeTruthy();
      expect(await two.tryAcquire('example.com', ['192.0.2.1'])).toBeTruthy();
      expect(await one.tryAcquire('example.com', ['192.0.2.2'])).toBeNull();
      await first!();
      expect(await two.tryAcquire('example.com', ['192.0.2.2'])).toBeTruthy();
      expect(await one.tryAcquire('example.com', ['192.0.2.3'])).toBeNull();
      // Neither of the two holding now gives back: after the lease their places are free again.
      await new Promise((r) => setTimeout(r, leaseMs + 100));
      expect(await one.tryAcquire('example.com', ['192.0.2.1'])).toBeTruthy();
    } finally {
      for (const c of connections) await c.close();
    }
  });
});

describe('politeness while Redis does not answer', () => {
  it('falls back to the limits of this instance', async () => {
    const redis = new RedisConnection(await deadRedisUrl(), silent);
    try {
      const p = new RedisPoliteness(redis, LIMITS, new LocalPoliteness(LIMITS), `${prefix}dead:`);
      expect(await p.tryAcquire('example.com', ['192.0.2.1'])).toBeTruthy();
      expect(await p.tryAcquire('example.com', ['192.0.2.1'])).toBeTruthy();
      expect(await p.tryAcquire('example.com', ['192.0.2.1'])).toBeNull();
    } finally {
      await redis.close();
    }
  });
});
