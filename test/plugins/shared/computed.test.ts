import { describe, expect, it } from 'vitest';
import { computed } from '../../../plugins/shared/computed.ts';

describe('computed values', () => {
  it('are made once per key and shared by every later call with that key', async () => {
    let made = 0;
    const page = computed(async (run: { url: string }) => {
      made++;
      return { url: run.url, n: made };
    });
    const run = { url: 'https://example.com/' };
    const [a, b] = await Promise.all([page(run), page(run)]);
    expect(a).toBe(b);
    expect(made).toBe(1);
    const other = await page({ url: 'https://example.com/' });
    expect(other).toEqual({ url: 'https://example.com/', n: 2 });
    expect(made).toBe(2);
  });

  it('are not made when nobody asks, and keep a falsy value as made', () => {
    let made = 0;
    const nothing = computed((_key: object) => {
      made++;
      return null;
    });
    expect(made).toBe(0);
    const key = {};
    expect(nothing(key)).toBeNull();
    expect(nothing(key)).toBeNull();
    expect(made).toBe(1);
  });
});
