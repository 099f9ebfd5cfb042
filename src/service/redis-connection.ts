// The one Redis connection an instance shares its cache and rate limit through. Redis only makes several
// instances behave as one; it is never allowed to fail or stall a request. Every command is bounded in time,
// a connection known to be down is not waited for, and a failure gives the caller its fallback instead.
import type { Redis } from 'ioredis';
import { lazyRequire } from '../lib/lazy-require.ts';
import type { AppLogger } from '../lib/log.ts';

// Loaded only by an instance configured with Redis (DVS_REDIS_URL).
const ioredis = lazyRequire<typeof import('ioredis')>('ioredis');

/** Longest a command (or the connect it triggers) may hold a request. Redis answers in well under 1 ms. */
const COMMAND_TIMEOUT_MS = 1_000;

export class RedisConnection {
  readonly client: Redis;
  private failing = false;

  constructor(
    url: string,
    private readonly log: AppLogger,
  ) {
    this.client = new (ioredis().Redis)(url, {
      lazyConnect: true,
      connectTimeout: COMMAND_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
    });
    // Without a listener ioredis prints every failed reconnect; an outage is logged once instead.
    this.client.on('error', (err: Error) => this.failed('connection', err));
  }

  /** The command's answer, or `fallback` when Redis cannot give one (logged once per outage). */
  async run<T>(what: string, command: (client: Redis) => Promise<T>, fallback: T): Promise<T> {
    // While ioredis is between reconnect attempts a command would only wait for its timeout.
    if (this.client.status === 'reconnecting' || this.client.status === 'end') return fallback;
    try {
      const value = await command(this.client);
      if (this.failing) {
        this.failing = false;
        this.log.info('Redis answers again: quick-scan cache and rate limit are shared again');
      }
      return value;
    } catch (err) {
      this.failed(what, err as Error);
      return fallback;
    }
  }

  private failed(what: string, err: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.log.warn(
      { err: err.message, during: what },
      'Redis does not answer: quick scans are not cached, rate limits are not enforced and politeness limits hold per instance until it does',
    );
  }

  async close(): Promise<void> {
    if (this.client.status === 'wait' || this.client.status === 'end') {
      this.client.disconnect();
      return;
    }
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
