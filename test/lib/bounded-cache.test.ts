import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoundedCache } from '../../src/lib/bounded-cache.ts';

describe('BoundedCache', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps at most maxKeys entries and drops, without throwing, what does not fit', () => {
    const cache = new BoundedCache<number>({ maxKeys: 2, ttlSeconds: 60 });
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i);
    expect([0, 1, 2, 3, 4].map((i) => cache.get(`k${i}`))).toEqual([0, 1, undefined, undefined, undefined]);
    cache.set('k0', 10);
    expect(cache.get('k0')).toBe(10);
    cache.close();
  });

  it('forgets an entry after its own TTL or the default one, and then has room again', () => {
    vi.useFakeTimers();
    const cache = new BoundedCache<string>({ maxKeys: 1, ttlSeconds: 60 });
    cache.set('short', 'a', 1);
    vi.advanceTimersByTime(1500);
    expect(cache.get('short')).toBeUndefined();
    cache.set('long', 'b');
    vi.advanceTimersByTime(59_000);
    expect(cache.get('long')).toBe('b');
    vi.advanceTimersByTime(2000);
    expect(cache.get('long')).toBeUndefined();
    cache.close();
  });

  it('hands back the stored object itself, not a copy', () => {
    const cache = new BoundedCache<{ n: number }>({ maxKeys: 1, ttlSeconds: 60 });
    const value = { n: 1 };
    cache.set('v', value);
    expect(cache.get('v')).toBe(value);
    cache.close();
  });
});
