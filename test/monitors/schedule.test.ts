// A monitor's schedule, as pure functions: intervals read from ISO 8601 durations, due times that fall at the
// monitor's own offset in every interval (spread by its id), and the waits between attempts of a run.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { isoDurationMs } from '../../src/lib/iso-duration.ts';
import { dueOffsetMs, nextDueAfter, retryWaitMs } from '../../src/service/monitors.ts';
import { newMonitorId } from '../../src/batches/monitor-store.ts';

describe('ISO 8601 intervals', () => {
  it('reads weeks, days, hours, minutes and seconds, and refuses calendar units and nonsense', () => {
    expect(isoDurationMs('P1D')).toEqual({ ms: 86_400_000 });
    expect(isoDurationMs('P1W')).toEqual({ ms: 604_800_000 });
    expect(isoDurationMs('PT1H30M')).toEqual({ ms: 5_400_000 });
    expect(isoDurationMs('PT2.5S')).toEqual({ ms: 2500 });
    expect(isoDurationMs('P1M')).toHaveProperty('problem', expect.stringContaining('years and months') as string);
    expect(isoDurationMs('P1Y')).toHaveProperty('problem');
    expect(isoDurationMs('1d')).toHaveProperty('problem');
    expect(isoDurationMs('PT0S')).toHaveProperty('problem');
    expect(isoDurationMs('-P1D')).toHaveProperty('problem');
  });
});

describe('due times', () => {
  test.prop([fc.integer({ min: 1000, max: 30 * 86_400_000 }), fc.integer({ min: 0, max: 4e12 })])(
    'the next due time is after the moment, within one interval, at the monitor offset',
    (interval, after) => {
      const id = newMonitorId();
      const due = nextDueAfter(after, interval, id).getTime();
      expect(due).toBeGreaterThan(after);
      expect(due - after).toBeLessThanOrEqual(interval);
      expect((((due - dueOffsetMs(id, interval)) % interval) + interval) % interval).toBe(0);
    },
  );

  it('spreads the monitors of one moment over the interval', () => {
    const day = 86_400_000;
    const hours = new Array<number>(24).fill(0);
    for (let i = 0; i < 2400; i++) hours[Math.floor(dueOffsetMs(newMonitorId(), day) / 3_600_000)]!++;
    // 100 a hour on average; a uniform spread keeps every hour well within half and twice that.
    expect(Math.min(...hours)).toBeGreaterThan(50);
    expect(Math.max(...hours)).toBeLessThan(200);
  });

  it('waits 1, 5 and 15 minutes between attempts, at most 1/16, 1/8 and 1/4 of the interval', () => {
    const day = 86_400_000;
    expect([1, 2, 3].map((a) => retryWaitMs(a, day))).toEqual([60_000, 300_000, 900_000]);
    expect([1, 2, 3].map((a) => retryWaitMs(a, 3200))).toEqual([200, 400, 800]);
  });
});
