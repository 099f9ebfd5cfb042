// An in-process cache with a hard bound, over node-cache: at most `maxKeys` entries, each kept for its TTL.
// node-cache refuses a new key when full instead of evicting an old one; a refused entry is simply not kept,
// which costs only the work of making it again, so a flood of distinct keys can neither grow memory nor throw.
import NodeCache from 'node-cache';

export interface BoundedCacheOptions {
  maxKeys: number;
  /** How long an entry is kept unless `set` says otherwise. */
  ttlSeconds: number;
}

export class BoundedCache<V> {
  private readonly cache: NodeCache;

  constructor({ maxKeys, ttlSeconds }: BoundedCacheOptions) {
    // Expired entries are swept a few times per TTL (at most once a minute), so a full cache frees its room.
    const checkperiod = Math.min(60, Math.max(1, Math.ceil(ttlSeconds / 4)));
    this.cache = new NodeCache({ maxKeys, stdTTL: ttlSeconds, checkperiod, useClones: false });
  }

  get(key: string): V | undefined {
    return this.cache.get<V>(key);
  }

  /** Keeps `value` under `key`, for `ttlSeconds` if given; a full cache drops it. */
  set(key: string, value: V, ttlSeconds?: number): void {
    // node-cache counts a replaced key against the bound too: make room for it first.
    this.cache.del(key);
    try {
      if (ttlSeconds === undefined) this.cache.set(key, value);
      else this.cache.set(key, value, ttlSeconds);
    } catch {
      // Full: the entry is made again when next asked for.
    }
  }

  /** Stops the expiry sweep (it never holds the process open). */
  close(): void {
    this.cache.close();
  }
}
