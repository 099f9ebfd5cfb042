// Politeness to scanned sites: places per registrable domain and per address, all or none, given back once;
// through Redis one limit for every instance, with places that lapse when their holder died; while Redis is
// away, each instance keeps the limits for itself.
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.ts';
import {
  LocalPoliteness,
  RedisPoliteness,
  type Acquired,
  type PolitenessLimits,
  type Release,
} from '../../src/service/politeness.ts';
import { RedisConnection } from '../../src/service/redis-connection.ts';
import { deadRedisUrl, REDIS_URL, redisReachable, removeKeys, testPrefix } from './shared-state-fixtures.ts';

const reachable = await redisReachable();
const silent = createLogger({ logLevel: 'silent' });
const LIMITS: PolitenessLimits = { perSite: 2, perAddress: 3, leaseMs: 60_000 };
const prefix = testPrefix();

/** The places' release when they were taken, else null. */
const taken = async (acquired: Promise<Acquired>): Promise<Release | null> => {
  const a = await acquired;
  return 'release' in a ? a.release : null;
};

afterAll(async () => {
  if (reachable) await removeKeys(prefix);
});

describe('politeness in process', () => {
  it('holds each site and address to its limit, takes all places or none, and gives them back once', async () => {
    const p = new LocalPoliteness(LIMITS);
    const a = await taken(p.tryAcquire('example.com', ['192.0.2.1']));
    const b = await taken(p.tryAcquire('example.com', ['192.0.2.2']));
    expect(a && b).toBeTruthy();
    // The full place is named: the site's (its second place is taken).
    expect(await p.tryAcquire('example.com', ['192.0.2.3'])).toEqual({ full: 'site:example.com' });
    // Another site on an address with room: taken; the third on 192.0.2.1 fills it.
    const c = await taken(p.tryAcquire('example.org', ['192.0.2.1']));
    const d = await taken(p.tryAcquire('example.net', ['192.0.2.1']));
    expect(c && d).toBeTruthy();
    expect(await p.tryAcquire('example.info', ['192.0.2.1', '192.0.2.9'])).toEqual({ full: 'ip:192.0.2.1' });
    // Refused whole: 192.0.2.9 was not taken by the refused call.
    for (let i = 0; i < 3; i++) expect(await taken(p.tryAcquire(`s${i}.example`, ['192.0.2.9']))).toBeTruthy();
    await a!();
    await a!();
    const again = await p.tryAcquire('example.com', []);
    expect(again).toMatchObject({ keys: ['site:example.com'] });
    expect(await taken(p.tryAcquire('example.com', []))).toBeNull();
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
      const first = await taken(one.tryAcquire('example.com', ['192.0.2.1']));
      expect(first).toBeTruthy();
      expect(await two.tryAcquire('example.com', ['192.0.2.1'])).toMatchObject({
        keys: ['site:example.com', 'ip:192.0.2.1'],
      });
      expect(await one.tryAcquire('example.com', ['192.0.2.2'])).toEqual({ full: 'site:example.com' });
      await first!();
      expect(await taken(two.tryAcquire('example.com', ['192.0.2.2']))).toBeTruthy();
      expect(await taken(one.tryAcquire('example.com', ['192.0.2.3']))).toBeNull();
      // Neither of the two holding now gives back: after the lease their places are free again.
      await new Promise((r) => setTimeout(r, leaseMs + 100));
      expect(await taken(one.tryAcquire('example.com', ['192.0.2.1']))).toBeTruthy();
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
      expect(await taken(p.tryAcquire('example.com', ['192.0.2.1']))).toBeTruthy();
      expect(await taken(p.tryAcquire('example.com', ['192.0.2.1']))).toBeTruthy();
      expect(await p.tryAcquire('example.com', ['192.0.2.1'])).toEqual({ full: 'site:example.com' });
    } finally {
      await redis.close();
    }
  });
});
