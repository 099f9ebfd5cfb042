// The Quick Scan cache in Redis, shared by every instance: one key per domain and ruleset digest
// (`dvs:quick:<domain>|<digest>`) holding the outcome as JSON, expiring by itself after the TTL. The last entry
// read under each key is kept parsed in process: while Redis holds the same text, a hit answers with the same
// object, so what the API derives from it once per entry (its bytes, their compressed forms, their digest) is
// made once per entry here too, not once per hit.
import type { CachedQuickScan, QuickScanCache } from './quick-scan-cache.ts';
import type { RedisConnection } from './redis-connection.ts';

function isCachedQuickScan(value: unknown): value is CachedQuickScan {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const result = v.result as Record<string, unknown> | null;
  return typeof result === 'object' && result !== null && Array.isArray(result.content) && typeof v.report === 'object';
}

/** Keys whose last read is kept parsed; past it the oldest is dropped (a later hit parses again). */
const MAX_KEPT_ENTRIES = 256;

export class RedisQuickScanCache implements QuickScanCache {
  private readonly kept = new Map<string, { text: string; value: CachedQuickScan }>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix = 'dvs:quick:',
  ) {}

  async get(key: string): Promise<CachedQuickScan | null> {
    const text = await this.redis.run('quick-scan cache read', (c) => c.get(this.prefix + key), null);
    if (text === null) return null;
    const kept = this.kept.get(key);
    if (kept?.text === text) return kept.value;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
    // Anything else under our key (another version's format, a hand edit) is a miss, not a crash.
    if (!isCachedQuickScan(value)) return null;
    this.kept.delete(key);
    if (this.kept.size >= MAX_KEPT_ENTRIES) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { text, value });
    return value;
  }

  async set(key: string, value: CachedQuickScan, ttlSeconds: number): Promise<void> {
    await this.redis.run(
      'quick-scan cache write',
      (c) => c.set(this.prefix + key, JSON.stringify(value), 'EX', ttlSeconds),
      null,
    );
  }
}
