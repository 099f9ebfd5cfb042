// Quick Scans are free, so they must be cheap: results are cached per domain and ruleset digest for a
// configurable time, and concurrent requests for one domain share one scan.
import NodeCache from 'node-cache';
import type { Ruleset } from '../engine/ruleset.ts';
import { summarise } from '../engine/summary.ts';
import type { Report } from '../engine/types.ts';
import type { Scanner } from '../scanner.ts';
import { canonicalJson } from '../signing/canonical.ts';
import { scanError, scanResult, type ScanResult } from './scan-result.ts';
import { SingleFlight } from './single-flight.ts';

export interface QuickScanOutcome {
  result: ScanResult;
  /** The report, when the domain could be judged (MCP returns it as structuredContent). */
  report: Report | null;
  cached: boolean;
}

export class QuickScans {
  private readonly cache: NodeCache;
  private readonly flight = new SingleFlight<Omit<QuickScanOutcome, 'cached'>>();

  constructor(
    private readonly scanner: Scanner,
    private readonly ruleset: Ruleset,
    ttlSeconds: number,
  ) {
    this.cache = new NodeCache({ stdTTL: ttlSeconds, checkperiod: Math.max(60, ttlSeconds), useClones: false, maxKeys: 10_000 });
  }

  private key(domain: string): string {
    return `${domain}|${this.ruleset.digest}`;
  }

  /** A cached outcome, without scanning. */
  cached(domain: string): QuickScanOutcome | null {
    const hit = this.cache.get<Omit<QuickScanOutcome, 'cached'>>(this.key(domain));
    return hit ? { ...hit, cached: true } : null;
  }

  /** The cached outcome, or a scan shared with every concurrent caller for the same domain. */
  async run(domain: string, signal?: AbortSignal): Promise<QuickScanOutcome> {
    const hit = this.cached(domain);
    if (hit) return hit;
    const key = this.key(domain);
    const outcome = await this.flight.run(key, async () => {
      const preflight = await this.scanner.preflight(domain);
      if (!preflight.ok) return { result: scanError(preflight.text), report: null };
      const { report } = await this.scanner.scan(domain, 'quick', signal);
      return { result: scanResult(summarise(report, this.ruleset), canonicalJson(report)), report };
    });
    try {
      this.cache.set(key, outcome);
    } catch {
      // A full cache only costs a rescan later; the result is still good to return.
    }
    return { ...outcome, cached: false };
  }

  /** Scans running now (for graceful shutdown and metrics). */
  get inFlight(): number {
    return this.flight.size;
  }

  close(): void {
    this.cache.close();
  }
}
