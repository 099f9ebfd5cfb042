// Quick Scans are free, so they must be cheap: outcomes are cached per domain and ruleset digest for a
// configurable time (in process, or in Redis shared by every instance), and concurrent requests for one
// domain on this instance share one scan.
import type { Ruleset } from '../engine/ruleset.ts';
import { summarise } from '../engine/summary.ts';
import type { Scanner } from '../scanner.ts';
import { canonicalJson } from '../signing/canonical.ts';
import type { CachedQuickScan, QuickScanCache } from './quick-scan-cache.ts';
import { scanError, scanResult } from './scan-result.ts';
import { SingleFlight } from './single-flight.ts';

export interface QuickScanOutcome extends CachedQuickScan {
  cached: boolean;
}

export class QuickScans {
  private readonly flight = new SingleFlight<CachedQuickScan>();

  constructor(
    private readonly scanner: Scanner,
    private readonly ruleset: Ruleset,
    private readonly cache: QuickScanCache,
    private readonly ttlSeconds: number,
  ) {}

  private key(domain: string): string {
    return `${domain}|${this.ruleset.digest}`;
  }

  /** A cached outcome, without scanning. */
  async cached(domain: string): Promise<QuickScanOutcome | null> {
    const hit = await this.cache.get(this.key(domain));
    return hit ? { ...hit, cached: true } : null;
  }

  /** The cached outcome, or a scan shared with every concurrent caller for the same domain. */
  async run(domain: string, signal?: AbortSignal): Promise<QuickScanOutcome> {
    return (await this.cached(domain)) ?? this.scanAndCache(domain, signal);
  }

  /** A scan shared with every concurrent caller for the same domain, stored in the cache; for callers that looked already. */
  async scanAndCache(domain: string, signal?: AbortSignal): Promise<QuickScanOutcome> {
    const key = this.key(domain);
    const outcome = await this.flight.run(key, async () => {
      const fresh = await this.scan(domain, signal);
      await this.cache.set(key, fresh, this.ttlSeconds);
      return fresh;
    });
    return { ...outcome, cached: false };
  }

  private async scan(domain: string, signal?: AbortSignal): Promise<CachedQuickScan> {
    const preflight = await this.scanner.preflight(domain);
    if (!preflight.ok) return { result: scanError(preflight.text), report: null };
    const { report } = await this.scanner.scan(domain, 'quick', signal);
    return { result: scanResult(summarise(report, this.ruleset), canonicalJson(report)), report };
  }

  /** Scans running now (for graceful shutdown and metrics). */
  get inFlight(): number {
    return this.flight.size;
  }
}
