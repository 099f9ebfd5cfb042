// The state instances may share, chosen from configuration in one place: with DVS_REDIS_URL the Quick Scan
// cache and rate limit live in Redis, so instances behind a balancer act as one; without it, in process.
import type { Config } from '../lib/config.ts';
import type { AppLogger } from '../lib/log.ts';
import { LocalPoliteness, RedisPoliteness, type Politeness, type PolitenessLimits } from './politeness.ts';
import { MemoryQuickScanCache, type QuickScanCache } from './quick-scan-cache.ts';
import { WindowRateLimiter, type RateLimiter } from './rate-limit.ts';
import { RedisConnection } from './redis-connection.ts';
import { RedisQuickScanCache } from './redis-quick-scan-cache.ts';
import { RedisRateLimiter } from './redis-rate-limit.ts';

export interface SharedState {
  cache: QuickScanCache;
  rateLimiter: RateLimiter;
  /** The larger budget of verified agents, keyed by their directory's origin. */
  agentRateLimiter: RateLimiter;
  /** The limits on batch scans at once per site and per address (per instance without Redis). */
  politeness: Politeness;
  /** Where the state lives, for the start-up log. */
  backend: 'redis' | 'memory';
  close(): Promise<void>;
}

export interface SharedStateOptions {
  /** Prefix of every Redis key (tests use their own to stay apart). */
  keyPrefix?: string;
}

/** A batch scan holds its places for at most its deadline, stretched as a busy process stretches it. */
const politenessLimits = (config: Partial<Pick<Config, 'batches' | 'deadlines'>>): PolitenessLimits => ({
  perAddress: config.batches?.politePerAddress ?? 4,
  perSite: config.batches?.politePerSite ?? 2,
  leaseMs: (config.deadlines?.fullMs ?? 90_000) * 3,
});

export function openSharedState(
  config: Pick<Config, 'redisUrl' | 'quickScan'> & Partial<Pick<Config, 'callerIdentity' | 'batches' | 'deadlines'>>,
  log: AppLogger,
  opts: SharedStateOptions = {},
): SharedState {
  const local = new LocalPoliteness(politenessLimits(config));
  const perMinute = config.quickScan.rateLimitPerMinute;
  const agentPerMinute = config.callerIdentity?.rateLimitPerMinute ?? perMinute;
  if (config.redisUrl === null) {
    const cache = new MemoryQuickScanCache();
    return {
      cache,
      rateLimiter: new WindowRateLimiter(perMinute),
      agentRateLimiter: new WindowRateLimiter(agentPerMinute),
      politeness: local,
      backend: 'memory',
      close: async () => cache.close(),
    };
  }
  const prefix = opts.keyPrefix ?? 'dvs:';
  const redis = new RedisConnection(config.redisUrl, log);
  return {
    cache: new RedisQuickScanCache(redis, `${prefix}quick:`),
    rateLimiter: new RedisRateLimiter(redis, perMinute, `${prefix}rate:`),
    agentRateLimiter: new RedisRateLimiter(redis, agentPerMinute, `${prefix}agent-rate:`),
    politeness: new RedisPoliteness(redis, politenessLimits(config), local, `${prefix}polite:`),
    backend: 'redis',
    close: () => redis.close(),
  };
}
