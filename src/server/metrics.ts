// Prometheus metrics (prom-client): requests by route and status, scans by tier and verdict, scan duration,
// cache hits, plus the process defaults. Served on their own listener so they never share the public port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Tier } from '../engine/types.ts';
import type { CallerMetrics } from '../service/caller-identity.ts';
import type { ScanEnd, ServiceMetrics } from '../service/metrics.ts';

const REQUEST_LABELS = ['method', 'route', 'status'] as const;
type RequestLabel = (typeof REQUEST_LABELS)[number];

export class PromMetrics implements ServiceMetrics, CallerMetrics {
  readonly registry = new Registry();
  /**
   * Responses since the last scrape, by method, route and status: one map entry per request costs a fraction of
   * prom-client's label hashing and checks, and the counter takes the counts when it is read.
   */
  private readonly answered = new Map<string, { labels: Record<RequestLabel, string>; count: number }>();
  private readonly requests = new Counter({
    name: 'dvs_http_requests_total',
    help: 'HTTP requests answered, by route and status',
    labelNames: REQUEST_LABELS,
    registers: [this.registry],
    collect: () => {
      for (const entry of this.answered.values()) {
        if (entry.count === 0) continue;
        this.requests.inc(entry.labels, entry.count);
        entry.count = 0;
      }
    },
  });
  private readonly scans = new Counter({
    name: 'dvs_scans_total',
    help: 'Scans run to their end, by tier and verdict (not_scanned: the domain could not be judged; deadline: it passed its deadline)',
    labelNames: ['tier', 'verdict'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'dvs_scan_duration_seconds',
    help: 'Time from the start of a scan to its end, by tier',
    labelNames: ['tier'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 90, 180],
    registers: [this.registry],
  });
  /** Cache hits since the last scrape: a hit is the cheapest answer there is, and counts as a plain increment. */
  private hitsSinceScrape = 0;
  private readonly cacheHits = new Counter({
    name: 'dvs_quickscan_cache_hits_total',
    help: 'Quick scans answered from the cache',
    registers: [this.registry],
    collect: () => {
      if (this.hitsSinceScrape > 0) this.cacheHits.inc(this.hitsSinceScrape);
      this.hitsSinceScrape = 0;
    },
  });

  private readonly callerSignatures = new Counter({
    name: 'dvs_caller_signatures_total',
    help: 'Requests signed per Web Bot Auth, by outcome (verified; invalid: served as unsigned)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  scanFinished(tier: Tier, end: ScanEnd, seconds: number): void {
    this.scans.inc({ tier, verdict: end });
    this.duration.observe({ tier }, seconds);
  }

  cacheHit(): void {
    this.hitsSinceScrape++;
  }

  callerSignature(outcome: 'verified' | 'invalid'): void {
    this.callerSignatures.inc({ outcome });
  }

  /** Counts one response by its route (a low-cardinality label: the matched pattern, or "unmatched"). */
  countAnswer(method: string, route: string, status: number): void {
    const key = `${method} ${route} ${status}`;
    const entry = this.answered.get(key);
    if (entry) entry.count++;
    else this.answered.set(key, { labels: { method, route, status: String(status) }, count: 1 });
  }

  /** Counts every response the Koa app writes by its matched route. */
  requestCounter(): Middleware {
    return async (ctx, next) => {
      try {
        await next();
      } finally {
        const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
        this.countAnswer(
          ctx.method,
          String(route ?? 'unmatched'),
          ctx.respond === false ? ctx.res.statusCode : ctx.status,
        );
      }
    };
  }
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** GET /metrics on a plain-HTTP listener of its own (scraped from inside the operator's network). */
export async function startMetricsServer(metrics: PromMetrics, host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      (err: Error) =>
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
