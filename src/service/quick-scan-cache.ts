// Where Quick Scan outcomes are kept between requests: in process by default (one instance), or in Redis when
// several instances share it (redis-quick-scan-cache.ts). A cache is an optimisation, never a dependency: one
// that cannot answer reports a miss and one that cannot store drops the entry, so it never fails a scan.
import NodeCache from 'node-cache';
import type { Report } from '../engine/types.ts';
import type { ScanResult } from './scan-result.ts';

/** A Quick Scan outcome as cached: plain JSON, so any backend can hold it. */
export interface CachedQuickScan {
  result: ScanResult;
  /** The report, when the domain could be judged. */
  report: Report | null;
}

export interface QuickScanCache {
  /** The entry under `key`, or null when there is none, it expired or the cache cannot answer. */
  get(key: string): Promise<CachedQuickScan | null>;
  /** Keeps `value` under `key` for `ttlSeconds`; never rejects. */
  set(key: string, value: CachedQuickScan, ttlSeconds: number): Promise<void>;
}

export class MemoryQuickScanCache implements QuickScanCache {
  private readonly cache: NodeCache;

  constructor(maxKeys = 10_000) {
    this.cache = new NodeCache({ checkperiod: 60, useClones: false, maxKeys });
  }

  async get(key: string): Promise<CachedQuickScan | null> {
    return this.cache.get<CachedQuickScan>(key) ?? null;
  }

  async set(key: string, value: CachedQuickScan, ttlSeconds: number): Promise<void> {
    try {
      this.cache.set(key, value, ttlSeconds);
    } catch {
      // A full cache only costs a rescan later.
    }
  }

  /** Stops the expiry timer. */
  close(): void {
    this.cache.close();
  }
}
