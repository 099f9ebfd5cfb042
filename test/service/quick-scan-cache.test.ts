// One contract for every Quick Scan cache: the in-process one and the Redis one behave the same.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import { catalogue } from '../suite/ruleset.ts';
import { createLogger } from '../../src/lib/log.ts';
import { MemoryQuickScanCache, type CachedQuickScan, type QuickScanCache } from '../../src/service/quick-scan-cache.ts';
import { RedisConnection } from '../../src/service/redis-connection.ts';
import { RedisQuickScanCache } from '../../src/service/redis-quick-scan-cache.ts';
import { scanError, scanResult } from '../../src/service/scan-result.ts';
import {
  capturingLog,
  deadRedisUrl,
  REDIS_URL,
  redisReachable,
  removeKeys,
  sampleReport,
  testPrefix,
} from './shared-state-fixtures.ts';

const reachable = await redisReachable();
const silent = createLogger({ logLevel: 'silent' });

interface Backend {
  name: string;
  skip: boolean;
  open(): { cache: QuickScanCache; close(): Promise<void> };
}

const prefix = testPrefix();
const backends: Backend[] = [
  {
    name: 'in process',
    skip: false,
    open() {
      const cache = new MemoryQuickScanCache();
      return { cache, close: async () => cache.close() };
    },
  },
  {
    name: 'Redis',
    skip: !reachable,
    open() {
      const redis = new RedisConnection(REDIS_URL, silent);
      return { cache: new RedisQuickScanCache(redis, `${prefix}quick:`), close: () => redis.close() };
    },
  },
];

let ruleset: Ruleset;
beforeAll(() => {
  ruleset = catalogue();
});
afterAll(async () => {
  if (reachable) await removeKeys(prefix);
});

const judged = (domain: string): CachedQuickScan => {
  const report = sampleReport(domain, ruleset);
  return { result: scanResult(`summary of ${domain}`, JSON.stringify(report)), report };
};

for (const backend of backends) {
  describe.skipIf(backend.skip)(`Quick Scan cache contract: ${backend.name}`, () => {
    let cache: QuickScanCache;
    let close: () => Promise<void>;
    beforeAll(() => {
      const opened = backend.open();
      cache = opened.cache;
      close = () => opened.close();
    });
    afterAll(() => close());

    it('has nothing under a key never set', async () => {
      expect(await cache.get('never-set.test|d1')).toBeNull();
    });

    it('returns what was set, report and all', async () => {
      const value = judged('stored.test');
      await cache.set('stored.test|d1', value, 60);
      expect(await cache.get('stored.test|d1')).toEqual(value);
    });

    it('keeps an outcome without a report (a domain that could not be judged)', async () => {
      const value = { result: scanError('missing.test does not exist in DNS.'), report: null };
      await cache.set('missing.test|d1', value, 60);
      expect(await cache.get('missing.test|d1')).toEqual(value);
    });

    it('keeps keys apart and lets a later set replace an entry', async () => {
      await cache.set('a.test|d1', judged('a.test'), 60);
      await cache.set('a.test|d2', judged('a2.test'), 60);
      await cache.set('a.test|d1', judged('a3.test'), 60);
      expect((await cache.get('a.test|d1'))?.report?.domain).toBe('a3.test');
      expect((await cache.get('a.test|d2'))?.report?.domain).toBe('a2.test');
    });

    it('forgets an entry once its TTL has passed', async () => {
      await cache.set('short.test|d1', judged('short.test'), 1);
      expect(await cache.get('short.test|d1')).not.toBeNull();
      await vi.waitFor(async () => expect(await cache.get('short.test|d1')).toBeNull(), {
        timeout: 5_000,
        interval: 100,
      });
    });
  });
}

describe.skipIf(!reachable)('Redis Quick Scan cache', () => {
  it('stores the outcome as JSON under dvs:quick:<domain>|<digest> with the TTL as expiry', async () => {
    const redis = new RedisConnection(REDIS_URL, silent);
    const own = testPrefix();
    const direct = new Redis(REDIS_URL);
    try {
      const value = judged('layout.test');
      await new RedisQuickScanCache(redis, `${own}quick:`).set('layout.test|abc', value, 600);
      const key = `${own}quick:layout.test|abc`;
      expect(JSON.parse((await direct.get(key))!)).toEqual(value);
      const ttl = await direct.ttl(key);
      expect(ttl).toBeGreaterThan(590);
      expect(ttl).toBeLessThanOrEqual(600);
    } finally {
      direct.disconnect();
      await redis.close();
      await removeKeys(own);
    }
  });

  it('answers hits of an unchanged entry with one object, and a replaced entry with the new one', async () => {
    const redis = new RedisConnection(REDIS_URL, silent);
    const own = testPrefix();
    const direct = new Redis(REDIS_URL);
    try {
      const cache = new RedisQuickScanCache(redis, `${own}quick:`);
      await cache.set('same.test|d', judged('same.test'), 60);
      const first = await cache.get('same.test|d');
      expect(await cache.get('same.test|d')).toBe(first);
      // Another instance (here, a direct write) replaces the entry: the next hit reads the new text.
      await direct.set(`${own}quick:same.test|d`, JSON.stringify(judged('replaced.test')));
      const replaced = await cache.get('same.test|d');
      expect(replaced?.report?.domain).toBe('replaced.test');
      expect(await cache.get('same.test|d')).toBe(replaced);
      // The junk written next is a miss, not the object kept for the earlier text.
      await direct.set(`${own}quick:same.test|d`, 'not json');
      expect(await cache.get('same.test|d')).toBeNull();
    } finally {
      direct.disconnect();
      await redis.close();
      await removeKeys(own);
    }
  });

  it('reads anything but a cached outcome under its key as a miss', async () => {
    const redis = new RedisConnection(REDIS_URL, silent);
    const own = testPrefix();
    const direct = new Redis(REDIS_URL);
    try {
      const cache = new RedisQuickScanCache(redis, `${own}quick:`);
      await direct.set(`${own}quick:junk.test|d`, 'not json');
      await direct.set(`${own}quick:other.test|d`, JSON.stringify({ verdict: 'CERTIFIED' }));
      expect(await cache.get('junk.test|d')).toBeNull();
      expect(await cache.get('other.test|d')).toBeNull();
    } finally {
      direct.disconnect();
      await redis.close();
      await removeKeys(own);
    }
  });
});

describe('Redis Quick Scan cache without Redis', () => {
  it('misses and drops writes instead of failing, and warns once', async () => {
    const { log, lines } = capturingLog();
    const redis = new RedisConnection(await deadRedisUrl(), log);
    try {
      const cache = new RedisQuickScanCache(redis);
      await expect(cache.set('down.test|d', judged('down.test'), 60)).resolves.toBeUndefined();
      expect(await cache.get('down.test|d')).toBeNull();
      expect(await cache.get('down.test|d')).toBeNull();
      expect(lines.filter((l) => l.level === 40 && /Redis does not answer/.test(l.msg))).toHaveLength(1);
    } finally {
      await redis.close();
    }
  });
});
