// Quick Scans are free, so they must be cheap: outcomes are cached per domain and ruleset digest for a
// configurable time (in process, or in Redis shared by every instance), concurrent requests for one domain on
// this instance share one scan, and only scans that really run count against the client's rate limit.
import type { Ruleset } from '../engine/ruleset.ts';
import { ScanDeadlineError } from '../engine/observe-and-judge.ts';
import { summarise } from '../engine/summary.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import type { ServiceMetrics } from './metrics.ts';
import { excerptsOf } from './evidence-excerpts.ts';
import type { CachedQuickScan, QuickScanCache } from './quick-scan-cache.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';
import type { ProgressListener, Scanner } from './scanner.ts';
import { scanError, scanResult } from './scan-result.ts';
import { ScansBusyError, type ScanLane } from './scan-slots.ts';
import { SingleFlight } from './single-flight.ts';

export interface QuickScanOutcome extends CachedQuickScan {
  cached: boolean;
}

/** The client has used its budget of scans for now. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number) {
    super(`too many quick scans from this client; try again in ${retryAfterSeconds} s`);
  }
}

export interface QuickScanDeps {
  scanner: Scanner;
  ruleset: Ruleset;
  cache: QuickScanCache;
  ttlSeconds: number;
  /** Counts the scans that really run, per client; a cached answer costs nothing. */
  rateLimiter: RateLimiter;
  /** The budget of callers whose Web Bot Auth signature verified, per directory origin (else rateLimiter's). */
  agentRateLimiter?: RateLimiter;
  metrics: ServiceMetrics;
}

/**
 * Who a scan is counted against: a client address, or a verified agent (its key directory's origin) and the
 * address it called from.
 */
export type ScanClient = string | { verifiedAgent: string; address: string };

const seconds = (startedNs: bigint) => Number(process.hrtime.bigint() - startedNs) / 1e9;

export class QuickScans {
  private readonly flight = new SingleFlight<CachedQuickScan>();

  constructor(private readonly deps: QuickScanDeps) {}

  private key(domain: string): string {
    return `${domain}|${this.deps.ruleset.digest}`;
  }

  /**
   * The cached outcome, or a scan shared with every concurrent caller for the same domain, if the client may
   * run one now (else RateLimitedError); a scan past its deadline rejects with ScanDeadlineError. onProgress hears
   * the probes of a scan this call starts (one it joins, or a cached answer, has none to tell).
   */
  async run(
    domain: string,
    client: ScanClient,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
  ): Promise<QuickScanOutcome> {
    const hit = await this.hit(domain);
    if (hit) return hit;
    const decision = await this.take(client);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfter);
    try {
      const owner = typeof client === 'string' ? client : client.address;
      return await this.timedScan(domain, 'interactive', signal, onProgress, owner);
    } catch (err) {
      // A scan turned away for want of a slot did not run: it is not counted (issue 31 item 11).
      if (err instanceof ScansBusyError) await this.giveBack(client);
      throw err;
    }
  }

  /**
   * A batch item's Quick Scan: the cached outcome, or a scan in the batch slot the caller holds. Not rate
   * limited per client: the account's quota was charged when the batch was accepted.
   */
  async runForBatch(domain: string, signal?: AbortSignal): Promise<QuickScanOutcome> {
    return (await this.cached(domain)) ?? this.timedScan(domain, 'batch', signal);
  }

  private async timedScan(
    domain: string,
    lane: ScanLane,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    owner?: string,
  ): Promise<QuickScanOutcome> {
    const { metrics } = this.deps;
    const started = process.hrtime.bigint();
    try {
      const outcome = await this.scanAndCache(domain, lane, signal, onProgress, owner);
      metrics.scanFinished('quick', outcome.report?.verdict ?? 'not_scanned', seconds(started));
      return outcome;
    } catch (err) {
      if (err instanceof ScanDeadlineError) metrics.scanFinished('quick', 'deadline', seconds(started));
      throw err;
    }
  }

  /**
   * The limiter and the budgets a scan counts against. A verified agent's count against its origin and against
   * the verified-agent budget of the address it called from: anyone can make key directories, and one address
   * naming ever more of them would otherwise get a budget per origin (issue 31 item 6).
   */
  private budgets(client: ScanClient): { limiter: RateLimiter; keys: string[] } {
    const { rateLimiter, agentRateLimiter } = this.deps;
    if (typeof client === 'string') return { limiter: rateLimiter, keys: [client] };
    return {
      limiter: agentRateLimiter ?? rateLimiter,
      keys: [`verified from ${client.address}`, client.verifiedAgent],
    };
  }

  private async take(client: ScanClient): Promise<RateDecision> {
    const { limiter, keys } = this.budgets(client);
    let decision: RateDecision = { allowed: true, retryAfter: 1 };
    for (const key of keys) {
      decision = await limiter.take(key);
      if (!decision.allowed) break;
    }
    return decision;
  }

  private async giveBack(client: ScanClient): Promise<void> {
    const { limiter, keys } = this.budgets(client);
    await Promise.all(keys.map((key) => limiter.giveBack(key)));
  }

  /** The cached outcome, counted as a scan answered from the cache; null when there is none. */
  async hit(domain: string): Promise<QuickScanOutcome | null> {
    const hit = await this.cached(domain);
    if (hit) this.deps.metrics.cacheHit();
    return hit;
  }

  /** A cached outcome, without scanning (and not counted as an answer). */
  async cached(domain: string): Promise<QuickScanOutcome | null> {
    const hit = await this.deps.cache.get(this.key(domain));
    return hit ? { ...hit, cached: true } : null;
  }

  private async scanAndCache(
    domain: string,
    lane: ScanLane,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    owner?: string,
  ): Promise<QuickScanOutcome> {
    const key = this.key(domain);
    const outcome = await this.flight.run(key, async () => {
      const fresh = await this.scan(domain, lane, signal, onProgress, owner);
      await this.deps.cache.set(key, fresh, this.deps.ttlSeconds);
      return fresh;
    });
    return { ...outcome, cached: false };
  }

  /** `owner`: the client the scan runs for, whose share of the scan slots it takes. */
  private async scan(
    domain: string,
    lane: ScanLane,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    owner?: string,
  ): Promise<CachedQuickScan> {
    const { scanner, ruleset } = this.deps;
    const preflight = await scanner.preflight(domain, 'quick');
    if (!preflight.ok) return { result: scanError(preflight.text), report: null };
    const call = { signal, onProgress, preflight, lane, ...(owner === undefined ? {} : { client: owner }) };
    const { report, observations } = await scanner.scan(domain, 'quick', call);
    return {
      result: scanResult(summarise(report, ruleset), canonicalJson(report)),
      report,
      excerpts: excerptsOf(report, observations, ruleset),
    };
  }

  /** Scans running now (for graceful shutdown and metrics). */
  get inFlight(): number {
    return this.flight.size;
  }
}
