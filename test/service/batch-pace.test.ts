// The batch lane's width follows the event loop's lateness: halved over the target, one more under half of it
// while every slot is in use, never below one or above DVS_BATCH_CONCURRENCY.
import { describe, expect, it } from 'vitest';
import { nextBatchLimit, startBatchPace } from '../../src/service/batch-pace.ts';

const opts = { max: 8, targetDelayMs: 50 };

describe('the batch pace', () => {
  it('halves the width over the target, down to one item', () => {
    expect(nextBatchLimit(8, 51, true, opts)).toBe(4);
    expect(nextBatchLimit(3, 200, false, opts)).toBe(2);
    expect(nextBatchLimit(1, 500, true, opts)).toBe(1);
  });

  it('widens by one under half the target, only while every slot was used, up to the most allowed', () => {
    expect(nextBatchLimit(2, 10, true, opts)).toBe(3);
    expect(nextBatchLimit(2, 10, false, opts)).toBe(2);
    expect(nextBatchLimit(8, 0, true, opts)).toBe(8);
  });

  it('holds the width between half the target and the target', () => {
    expect(nextBatchLimit(5, 25, true, opts)).toBe(5);
    expect(nextBatchLimit(5, 50, true, opts)).toBe(5);
  });

  it('starts at one item, widens while the loop is on time, and narrows when it is held up', async () => {
    const limits: number[] = [];
    let running = 0;
    const lane = {
      takeBatchPeak: () => running,
      setBatchLimit: (n: number) => {
        limits.push(n);
        running = n;
      },
    };
    // A target far above what a loaded test machine's loop runs late, and a hold-up far above the target.
    const pace = startBatchPace({ max: 4, targetDelayMs: 300, intervalMs: 100 }, lane);
    try {
      const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
      while (limits.at(-1)! < 4) await settle(20);
      expect(limits).toEqual([1, 2, 3, 4]);
      // A turn of the loop that takes 600 ms: a reading after it finds the loop late and halves the width.
      const blockedFrom = performance.now();
      while (performance.now() - blockedFrom < 600);
      while (limits.length === 4 && performance.now() - blockedFrom < 3000) await settle(20);
      expect(limits[4]).toBe(2);
    } finally {
      pace.stop();
    }
  });
});
