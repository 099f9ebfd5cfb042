// Where Quick Scan outcomes are kept between requests: in process by default (one instance), or in Redis when
// several instances share it (redis-quick-scan-cache.ts). A cache is an optimisation, never a dependency: one
// that cannot answer reports a miss and one that cannot store drops the entry, so it never fails a scan.
import type { Report } from '../engine/types.ts';
import { BoundedCache } from '../lib/bounded-cache.ts';
import type { Excerpts } from './evidence-excerpts.ts';
import type { ScanResult } from './scan-result.ts';

/** A Quick Scan outcome as cached: plain JSON, so any backend can hold it. */
export interface CachedQuickScan {
  result: ScanResult;
  /** The report, when the domain could be judged. */
  report: Report | null;
  /** What its checks saw as the site sent it, for the report page; absent from entries of older releases. */
  excerpts?: Excerpts;
}

export interface QuickScanCache {
  /** The entry under `key`, or null when there is none, it expired or the cache cannot answer. */
  get(key: string): Promise<CachedQuickScan | null>;
  /** Keeps `value` under `key` for `ttlSeconds`; never rejects. */
  set(key: string, value: CachedQuickScan, ttlSeconds: number): Promise<void>;
}

export class MemoryQuickScanCache implements QuickScanCache {
  private readonly cache: BoundedCache<CachedQuickScan>;

  constructor(maxKeys = 10_000) {
    // Every entry is set with its own TTL; the default only bounds the sweep.
    this.cache = new BoundedCache({ maxKeys, ttlSeconds: 240 });
  }

  async get(key: string): Promise<CachedQuickScan | null> {
    return this.cache.get(key) ?? null;
  }

  async set(key: string, value: CachedQuickScan, ttlSeconds: number): Promise<void> {
    this.cache.set(key, value, ttlSeconds);
  }

  /** Stops the expiry timer. */
  close(): void {
    this.cache.close();
  }
}
