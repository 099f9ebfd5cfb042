// The per-client Quick Scan limit in Redis, so several instances share one budget per client. A fixed
// one-minute window, as in process, except that a client's window starts with its first counted scan rather
// than on the clock's minute: instances then agree on the window without agreeing on the time.
import type { RedisConnection } from './redis-connection.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';

const WINDOW_MS = 60_000;

// Count and expiry in one atomic step: the first scan of a window starts its expiry, and a key somehow left
// without one gets it back, so a client can never be locked out for good.
const TAKE = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

// Only a count still in its window is given back, and never below zero.
const GIVE_BACK = `
if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then redis.call('DECR', KEYS[1]) end
return 0
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: RedisConnection,
    private readonly perMinute: number,
    private readonly prefix = 'dvs:rate:',
  ) {}

  async take(client: string): Promise<RateDecision> {
    const answer = await this.redis.run(
      'rate limit',
      (c) => c.eval(TAKE, 1, this.prefix + client, WINDOW_MS) as Promise<[number, number]>,
      null,
    );
    // Failing open: a free scan too many is cheaper than refusing every client while Redis is away.
    if (answer === null) return { allowed: true, retryAfter: 1 };
    const [count, ttlMs] = answer;
    const retryAfter = Math.max(1, Math.ceil(ttlMs / 1000));
    return { allowed: count <= this.perMinute, retryAfter };
  }

  async giveBack(client: string): Promise<void> {
    await this.redis.run('rate limit', (c) => c.eval(GIVE_BACK, 1, this.prefix + client), null);
  }
}
