// The Quick Scan cache in Redis, shared by every instance: one key per domain and ruleset digest
// (`dvs:quick:<domain>|<digest>`) holding the outcome as JSON, expiring by itself after the TTL.
import type { CachedQuickScan, QuickScanCache } from './quick-scan-cache.ts';
import type { RedisConnection } from './redis-connection.ts';

function isCachedQuickScan(value: unknown): value is CachedQuickScan {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const result = v.result as Record<string, unknown> | null;
  return typeof result === 'object' && result !== null && Array.isArray(result.content) && typeof v.report === 'object';
}

export class RedisQuickScanCache implements QuickScanCache {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix = 'dvs:quick:',
  ) {}

  async get(key: string): Promise<CachedQuickScan | null> {
    const text = await this.redis.run('quick-scan cache read', (c) => c.get(this.prefix + key), null);
    if (text === null) return null;
    try {
      const value: unknown = JSON.parse(text);
      // Anything else under our key (another version's format, a hand edit) is a miss, not a crash.
      return isCachedQuickScan(value) ? value : null;
    } catch {
      return null;
    }
  }

  async set(key: string, value: CachedQuickScan, ttlSeconds: number): Promise<void> {
    await this.redis.run(
      'quick-scan cache write',
      (c) => c.set(this.prefix + key, JSON.stringify(value), 'EX', ttlSeconds),
      null,
    );
  }
}
