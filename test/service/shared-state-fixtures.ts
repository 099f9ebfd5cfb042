// What the shared-state tests need: the local Redis (or the knowledge that there is none), key prefixes of
// their own, a Redis URL nobody answers on, a logger whose lines can be read, and a scanner that counts.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import type { ScanOutcome } from '../../src/engine/observe-and-judge.ts';
import type { Report } from '../../src/engine/types.ts';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { createLogger, type AppLogger } from '../../src/lib/log.ts';
import type { Preflight, Scanner } from '../../src/service/scanner.ts';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether the local Redis answers a PING; prints the skip notice once when it does not. */
export async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    console.log('Redis not reachable: skipped');
    return false;
  } finally {
    probe.disconnect();
  }
}

/** A key prefix no other test run uses. */
export const testPrefix = (): string => `dvs-test:${randomUUID()}:`;

/** Deletes every key under `prefix`. */
export async function removeKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL);
  try {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

/**
 * A redis:// URL whose port drops every connection at once. The port stays held for the rest of the run: a port
 * bound and let go could be taken by another process before the test connects to it.
 */
export async function deadRedisUrl(): Promise<string> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as net.AddressInfo;
  return `redis://127.0.0.1:${port}`;
}

/** A warn-level logger and the parsed lines it wrote. */
export function capturingLog(): { log: AppLogger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { log: createLogger({ logLevel: 'warn' }, sink), lines };
}

export function sampleReport(domain: string, ruleset: Ruleset): Report {
  const rule = ruleset.rules[0]!;
  return {
    type: 'dvs.report',
    version: 1,
    engine: 'test',
    domain,
    tier: 'quick',
    observed_at: '2025-06-01T12:00:00.000Z',
    verdict: 'NOT_CONFORMANT',
    score: 50,
    ruleset: { version: ruleset.version, digest: ruleset.digest },
    evidence_digest: 'e'.repeat(64),
    counts: { pass: 0, fail: 1, not_applicable: 0, error: 0 },
    probes: { tls: 'ok' },
    results: [{ id: rule.id, version: rule.version, level: rule.level, outcome: 'fail', observed: {} }],
  };
}

/** A scanner that answers from `sampleReport` (or NXDOMAIN for names starting with `missing`) and counts scans. */
export class CountingScanner implements Scanner {
  scans = 0;
  private release: (() => void) | null = null;
  private gate: Promise<void> | null = null;

  constructor(private readonly ruleset: Ruleset) {}

  /** Holds every scan until `open()` is called. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release?.();
  }

  async preflight(domain: string): Promise<Preflight> {
    if (domain.startsWith('missing'))
      return { ok: false, reason: 'nxdomain', text: `${domain} does not exist in DNS (NXDOMAIN).` };
    return { ok: true };
  }

  async scan(domain: string): Promise<ScanOutcome> {
    this.scans++;
    await this.gate;
    const report = sampleReport(domain, this.ruleset);
    const observations = { target: { domain, observed_at: report.observed_at }, probes: {} };
    return { observations, evidence: canonicalJson(observations), report };
  }
}
