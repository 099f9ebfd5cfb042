// Quick Scans over a cache: one scan per domain and ruleset while the entry lives, shared by concurrent callers
// on one instance and, through Redis, by every instance; and still scanning when Redis is away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import { catalogue } from '../suite/ruleset.ts';
import { createLogger } from '../../src/lib/log.ts';
import { MemoryQuickScanCache, type QuickScanCache } from '../../src/service/quick-scan-cache.ts';
import { WindowRateLimiter } from '../../src/service/rate-limit.ts';
import { ScansBusyError } from '../../src/service/scan-slots.ts';
import { QuickScans, RateLimitedError } from '../../src/service/quick-scans.ts';
import { openSharedState } from '../../src/service/shared-state.ts';
import {
  capturingLog,
  CountingScanner,
  deadRedisUrl,
  REDIS_URL,
  redisReachable,
  removeKeys,
  testPrefix,
} from './shared-state-fixtures.ts';

const reachable = await redisReachable();
const silent = createLogger({ logLevel: 'silent' });
const config = (redisUrl: string | null) => ({ redisUrl, quickScan: { cacheTtlSeconds: 600, rateLimitPerMinute: 2 } });

let ruleset: Ruleset;
const quickScans = (scanner: CountingScanner, cache: QuickScanCache, rules: Ruleset = ruleset) =>
  new QuickScans({
    scanner,
    ruleset: rules,
    cache,
    ttlSeconds: 600,
    rateLimiter: new WindowRateLimiter(1000),
    metrics: { scanFinished: () => undefined, cacheHit: () => undefined },
  });
beforeAll(() => {
  ruleset = catalogue();
});

describe('Quick Scans in process', () => {
  const cache = new MemoryQuickScanCache();
  afterAll(() => cache.close());

  it('scans once and answers from the cache after that', async () => {
    const scanner = new CountingScanner(ruleset);
    const quick = quickScans(scanner, cache);
    expect(await quick.cached('once.test')).toBeNull();
    const first = await quick.run('once.test', 'client');
    const second = await quick.run('once.test', 'client');
    expect(scanner.scans).toBe(1);
    expect(first.cached).toBe(false);
    expect(second).toEqual({ ...first, cached: true });
    expect(first.result.content[0]!.text).toContain('once.test: NOT_CONFORMANT');
    expect(await quick.cached('once.test')).toEqual(second);
  });

  it('counts verified agents against the address they call from too: self-made origins add nothing', async () => {
    // Issue 31 item 6: 2 unsigned scans a minute, 3 for a verified agent; one address with 5 origins got 17.
    const quick = new QuickScans({
      scanner: new CountingScanner(ruleset),
      ruleset,
      cache,
      ttlSeconds: 600,
      rateLimiter: new WindowRateLimiter(2),
      agentRateLimiter: new WindowRateLimiter(3),
      metrics: { scanFinished: () => undefined, cacheHit: () => undefined },
    });
    const ran = async (domain: string, client: Parameters<QuickScans['run']>[1]) => {
      try {
        await quick.run(domain, client);
        return true;
      } catch (err) {
        if (err instanceof RateLimitedError) return false;
        throw err;
      }
    };
    let count = 0;
    for (let i = 0; i < 3; i++) if (await ran(`unsigned-${i}.test`, '192.0.2.1')) count++;
    for (let origin = 0; origin < 5; origin++)
      for (let i = 0; i < 3; i++)
        if (
          await ran(`agent-${origin}-${i}.test`, { verifiedAgent: `https://a${origin}.example`, address: '192.0.2.1' })
        )
          count++;
    expect(count).toBe(2 + 3);
    // Another address keeps its own budgets, and an origin its own across addresses.
    expect(await ran('other-1.test', { verifiedAgent: 'https://a0.example', address: '192.0.2.2' })).toBe(false);
    expect(await ran('other-2.test', { verifiedAgent: 'https://a9.example', address: '192.0.2.2' })).toBe(true);
  });

  it('counts only scans that run: a 503 busy gives its count back', async () => {
    // Issue 31 item 11: an MCP batch of 40 gave 7 ran, 23 busy and 10 rate-limited.
    const scanner = new CountingScanner(ruleset);
    let busy = true;
    const scan = scanner.scan.bind(scanner);
    scanner.scan = async (domain: string) => {
      if (busy) throw new ScansBusyError(5);
      return scan(domain);
    };
    const quick = new QuickScans({
      scanner,
      ruleset,
      cache,
      ttlSeconds: 600,
      rateLimiter: new WindowRateLimiter(2),
      metrics: { scanFinished: () => undefined, cacheHit: () => undefined },
    });
    for (let i = 0; i < 5; i++) await expect(quick.run(`busy-${i}.test`, '192.0.2.9')).rejects.toThrow(ScansBusyError);
    busy = false;
    await quick.run('ran-1.test', '192.0.2.9');
    await quick.run('ran-2.test', '192.0.2.9');
    await expect(quick.run('ran-3.test', '192.0.2.9')).rejects.toThrow(RateLimitedError);
  });

  it('lets concurrent callers share one scan', async () => {
    const scanner = new CountingScanner(ruleset);
    const quick = quickScans(scanner, cache);
    scanner.hold();
    const runs = [
      quick.run('together.test', 'client'),
      quick.run('together.test', 'client'),
      quick.run('together.test', 'client'),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    expect(quick.inFlight).toBe(1);
    scanner.open();
    const outcomes = await Promise.all(runs);
    expect(scanner.scans).toBe(1);
    expect(new Set(outcomes.map((o) => o.result.content[1]!.text)).size).toBe(1);
    expect(quick.inFlight).toBe(0);
  });

  it('caches a domain that could not be judged, without scanning it', async () => {
    const scanner = new CountingScanner(ruleset);
    const quick = quickScans(scanner, cache);
    const first = await quick.run('missing.test', 'client');
    expect(first).toMatchObject({ result: { isError: true }, report: null, cached: false });
    expect((await quick.run('missing.test', 'client')).cached).toBe(true);
    expect(scanner.scans).toBe(0);
  });

  it('keeps results of another ruleset apart', async () => {
    const scanner = new CountingScanner(ruleset);
    await quickScans(scanner, cache).run('rules.test', 'client');
    const other = await quickScans(scanner, cache, { ...ruleset, digest: 'f'.repeat(64) }).run('rules.test', 'client');
    expect(other.cached).toBe(false);
    expect(scanner.scans).toBe(2);
  });
});

describe.skipIf(!reachable)('Quick Scans on two instances sharing Redis', () => {
  it("serves the second instance the first one's result without scanning again", async () => {
    const own = testPrefix();
    const stateA = openSharedState(config(REDIS_URL), silent, { keyPrefix: own });
    const stateB = openSharedState(config(REDIS_URL), silent, { keyPrefix: own });
    try {
      const scannerA = new CountingScanner(ruleset);
      const scannerB = new CountingScanner(ruleset);
      const first = await quickScans(scannerA, stateA.cache).run('shared.test', 'client');
      const second = await quickScans(scannerB, stateB.cache).run('shared.test', 'client');
      expect([scannerA.scans, scannerB.scans]).toEqual([1, 0]);
      expect(first.cached).toBe(false);
      expect(second).toEqual({ ...first, cached: true });
    } finally {
      await stateA.close();
      await stateB.close();
      await removeKeys(own);
    }
  });
});

describe('Quick Scans with Redis configured but not answering', () => {
  it('scans every time, lets clients through and warns once', async () => {
    const { log, lines } = capturingLog();
    const state = openSharedState(config(await deadRedisUrl()), log);
    try {
      const scanner = new CountingScanner(ruleset);
      const quick = quickScans(scanner, state.cache);
      const outcomes = [await quick.run('down.test', 'client'), await quick.run('down.test', 'client')];
      expect(outcomes.map((o) => o.cached)).toEqual([false, false]);
      expect(outcomes[0]!.report?.domain).toBe('down.test');
      expect(scanner.scans).toBe(2);
      const decisions = await Promise.all([1, 2, 3].map(() => state.rateLimiter.take('192.0.2.50')));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
      expect(lines.filter((l) => l.level === 40 && /Redis does not answer/.test(l.msg))).toHaveLength(1);
    } finally {
      await state.close();
    }
  });
});

describe('shared state without Redis', () => {
  it('keeps the cache and the limit in process', async () => {
    const state = openSharedState(config(null), silent);
    try {
      expect(state.backend).toBe('memory');
      const decisions = await Promise.all([1, 2, 3].map(() => state.rateLimiter.take('192.0.2.60')));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    } finally {
      await state.close();
    }
  });
});
