// One contract for every rate limiter (in process and Redis), then what only the shared one promises: one
// budget across instances, a window that always ends, and letting scans through while Redis is away.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.ts';
import { WindowRateLimiter, type RateLimiter } from '../../src/service/rate-limit.ts';
import { RedisConnection } from '../../src/service/redis-connection.ts';
import { RedisRateLimiter } from '../../src/service/redis-rate-limit.ts';
import { openSharedState } from '../../src/service/shared-state.ts';
import {
  capturingLog,
  deadRedisUrl,
  REDIS_URL,
  redisReachable,
  removeKeys,
  testPrefix,
} from './shared-state-fixtures.ts';

const reachable = await redisReachable();
const silent = createLogger({ logLevel: 'silent' });
const PER_MINUTE = 3;

interface Backend {
  name: string;
  skip: boolean;
  open(): { limiter: RateLimiter; close(): Promise<void> };
}

const prefix = testPrefix();
const backends: Backend[] = [
  {
    name: 'in process',
    skip: false,
    open: () => ({ limiter: new WindowRateLimiter(PER_MINUTE), close: async () => {} }),
  },
  {
    name: 'Redis',
    skip: !reachable,
    open() {
      const redis = new RedisConnection(REDIS_URL, silent);
      return { limiter: new RedisRateLimiter(redis, PER_MINUTE, `${prefix}rate:`), close: () => redis.close() };
    },
  },
];

afterAll(async () => {
  if (reachable) await removeKeys(prefix);
});

async function takeMany(limiter: RateLimiter, client: string, n: number) {
  const decisions = [];
  for (let i = 0; i < n; i++) decisions.push(await limiter.take(client));
  return decisions;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`rate limiter contract: ${backend.name}`, () => {
    let limiter: RateLimiter;
    let close: () => Promise<void>;
    beforeAll(() => {
      const opened = backend.open();
      limiter = opened.limiter;
      close = () => opened.close();
    });
    afterAll(() => close());

    it('allows the budget of a minute, then refuses with a Retry-After within the minute', async () => {
      const decisions = await takeMany(limiter, '192.0.2.1', PER_MINUTE + 2);
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
      for (const d of decisions) {
        expect(d.retryAfter).toBeGreaterThanOrEqual(1);
        expect(d.retryAfter).toBeLessThanOrEqual(60);
      }
    });

    it('takes back a scan given back, within the window and never below zero', async () => {
      await limiter.giveBack('192.0.2.3');
      await takeMany(limiter, '192.0.2.3', PER_MINUTE);
      await limiter.giveBack('192.0.2.3');
      expect((await limiter.take('192.0.2.3')).allowed).toBe(true);
      expect((await limiter.take('192.0.2.3')).allowed).toBe(false);
    });

    it('counts every client on its own', async () => {
      await takeMany(limiter, '192.0.2.2', PER_MINUTE);
      expect((await limiter.take('192.0.2.2')).allowed).toBe(false);
      expect((await limiter.take('2001:db8::2')).allowed).toBe(true);
    });
  });
}

describe('in-process rate limiter', () => {
  it('starts a new budget with the next minute and says when that is', async () => {
    let now = Date.UTC(2025, 5, 1, 12, 0, 15);
    const limiter = new WindowRateLimiter(1, () => now);
    expect((await limiter.take('c')).allowed).toBe(true);
    expect(await limiter.take('c')).toEqual({ allowed: false, retryAfter: 45 });
    now += 45_000;
    expect((await limiter.take('c')).allowed).toBe(true);
  });
});

describe.skipIf(!reachable)('Redis rate limiter', () => {
  it('gives two instances one budget per client', async () => {
    const own = testPrefix();
    const config = { redisUrl: REDIS_URL, quickScan: { cacheTtlSeconds: 60, rateLimitPerMinute: PER_MINUTE } };
    const first = openSharedState(config, silent, { keyPrefix: own });
    const second = openSharedState(config, silent, { keyPrefix: own });
    try {
      expect(first.backend).toBe('redis');
      const allowed = [];
      for (let i = 0; i < PER_MINUTE + 1; i++)
        allowed.push((await (i % 2 ? second : first).rateLimiter.take('198.51.100.7')).allowed);
      expect(allowed).toEqual([true, true, true, false]);
      expect((await first.rateLimiter.take('198.51.100.7')).allowed).toBe(false);
    } finally {
      await first.close();
      await second.close();
      await removeKeys(own);
    }
  });

  it('ends every window: the key expires within the minute, and the budget returns when it does', async () => {
    const own = testPrefix();
    const redis = new RedisConnection(REDIS_URL, silent);
    const direct = new Redis(REDIS_URL);
    try {
      const limiter = new RedisRateLimiter(redis, 1, `${own}rate:`);
      expect((await limiter.take('c')).allowed).toBe(true);
      const ttl = await direct.pttl(`${own}rate:c`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect((await limiter.take('c')).allowed).toBe(false);
      await direct.del(`${own}rate:c`);
      expect((await limiter.take('c')).allowed).toBe(true);
    } finally {
      direct.disconnect();
      await redis.close();
      await removeKeys(own);
    }
  });

  it('puts an expiry back on a counter that lost it, so nobody is locked out for good', async () => {
    const own = testPrefix();
    const redis = new RedisConnection(REDIS_URL, silent);
    const direct = new Redis(REDIS_URL);
    try {
      await direct.set(`${own}rate:stuck`, '50');
      const decision = await new RedisRateLimiter(redis, 1, `${own}rate:`).take('stuck');
      expect(decision.allowed).toBe(false);
      expect(decision.retryAfter).toBe(60);
      expect(await direct.pttl(`${own}rate:stuck`)).toBeGreaterThan(0);
    } finally {
      direct.disconnect();
      await redis.close();
      await removeKeys(own);
    }
  });
});

describe('Redis rate limiter without Redis', () => {
  it('lets every scan through and warns once', async () => {
    const { log, lines } = capturingLog();
    const redis = new RedisConnection(await deadRedisUrl(), log);
    try {
      const decisions = await takeMany(new RedisRateLimiter(redis, 1), '192.0.2.9', 4);
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true]);
      expect(lines.filter((l) => l.level === 40 && /Redis does not answer/.test(l.msg))).toHaveLength(1);
    } finally {
      await redis.close();
    }
  });
});
