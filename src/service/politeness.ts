// Politeness to scanned sites: at most a configured number of batch scans at once against one IP address and
// against one registrable domain, across every instance when Redis is configured (a place is a member of a
// sorted set scored by its expiry, so the places of an instance that died lapse on their own). Without Redis, or
// while it does not answer, each instance keeps the limits for itself: N instances may then reach N times them.
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from './redis-connection.ts';

export interface PolitenessLimits {
  perAddress: number;
  perSite: number;
  /** How long a place is held at most (a scan's longest run): an instance that dies frees it after this. */
  leaseMs: number;
}

/** Gives the places back. */
export type Release = () => Promise<void>;

/**
 * Places taken (`release` gives them back; `keys` name them, for whoever waits on one), or the key of a place
 * that was full (a batch item waits on it: src/service/batches.ts).
 */
export type Acquired = { release: Release; keys: readonly string[] } | { full: string };

export interface Politeness {
  /** Places for one scan of a site (its registrable domain) at these addresses, all or none. */
  tryAcquire(site: string, addresses: readonly string[]): Promise<Acquired>;
}

interface Place {
  key: string;
  limit: number;
}

const places = (limits: PolitenessLimits, site: string, addresses: readonly string[]): Place[] => [
  { key: `site:${site}`, limit: limits.perSite },
  ...[...new Set(addresses)].map((a) => ({ key: `ip:${a}`, limit: limits.perAddress })),
];

export class LocalPoliteness implements Politeness {
  private readonly held = new Map<string, number>();

  constructor(private readonly limits: PolitenessLimits) {}

  async tryAcquire(site: string, addresses: readonly string[]): Promise<Acquired> {
    const wanted = places(this.limits, site, addresses);
    const full = wanted.find((p) => (this.held.get(p.key) ?? 0) >= p.limit);
    if (full) return { full: full.key };
    for (const p of wanted) this.held.set(p.key, (this.held.get(p.key) ?? 0) + 1);
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      for (const p of wanted) {
        const n = (this.held.get(p.key) ?? 1) - 1;
        if (n === 0) this.held.delete(p.key);
        else this.held.set(p.key, n);
      }
    };
    return { release, keys: wanted.map((p) => p.key) };
  }
}

// Every place or none, in one atomic step: lapsed places are dropped first, then each set is counted.
// KEYS: the places; ARGV: now, the lease's end, the lease id, then each place's limit. Answers 0 when the places
// were taken, else the (1-based) number of the first full one.
const ACQUIRE = `
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('PEXPIREAT', key, ARGV[2])
end
return 0
`;

export class RedisPoliteness implements Politeness {
  constructor(
    private readonly redis: RedisConnection,
    private readonly limits: PolitenessLimits,
    /** Takes over while Redis does not answer. */
    private readonly fallback: Politeness,
    private readonly prefix = 'dvs:polite:',
  ) {}

  async tryAcquire(site: string, addresses: readonly string[]): Promise<Acquired> {
    const wanted = places(this.limits, site, addresses);
    const keys = wanted.map((p) => this.prefix + p.key);
    const lease = randomUUID();
    const now = Date.now();
    const answer = await this.redis.run(
      'politeness',
      (c) =>
        c.eval(ACQUIRE, keys.length, ...keys, now, now + this.limits.leaseMs, lease, ...wanted.map((p) => p.limit)),
      null,
    );
    if (answer === null) return this.fallback.tryAcquire(site, addresses);
    const full = wanted[Number(answer) - 1];
    if (full) return { full: full.key };
    return {
      release: async () => {
        await this.redis.run('politeness', (c) => Promise.all(keys.map((k) => c.zrem(k, lease))), []);
      },
      keys: wanted.map((p) => p.key),
    };
  }
}
