// A per-client limit on scans that actually run (cached answers are free): a fixed one-minute window per
// client key, kept in process. Enough for one instance; several instances share redis-rate-limit.ts.
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

export interface RateLimiter {
  take(client: string): Promise<RateDecision>;
  /** Gives back a scan `take` counted that did not run (the service was busy): only scans that run count. */
  giveBack(client: string): Promise<void>;
}

export class WindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(client: string): Promise<RateDecision> {
    const t = this.now();
    const windowStart = t - (t % 60_000);
    if (this.windows.size > 50_000) this.sweep(windowStart);
    const w = this.windows.get(client);
    const current = w && w.start === windowStart ? w : { start: windowStart, count: 0 };
    const retryAfter = Math.max(1, Math.ceil((windowStart + 60_000 - t) / 1000));
    if (current.count >= this.perMinute) return { allowed: false, retryAfter };
    current.count++;
    this.windows.set(client, current);
    return { allowed: true, retryAfter };
  }

  async giveBack(client: string): Promise<void> {
    const w = this.windows.get(client);
    if (w && w.count > 0) w.count--;
  }

  private sweep(windowStart: number): void {
    for (const [k, w] of this.windows) if (w.start < windowStart) this.windows.delete(k);
  }
}
