// The critical-path bench's two yardsticks (bench/schedule.ts), over hand-made traces: the longest chain counts each operation from
// when it held its slot plus the probe's work before it asked, and the ideal schedule keeps to the slot limit.
import { describe, expect, it } from 'vitest';
import { criticalPath, idealScheduleMs } from '../../bench/schedule.ts';
import type { TracedOperation } from '../../src/net/types.ts';

type Op = Pick<TracedOperation, 'id' | 'askedMs' | 'startMs' | 'endMs' | 'waitedFor'> & Partial<TracedOperation>;
const op = (o: Op): TracedOperation => ({ kind: 'http', target: `op ${o.id}`, scope: 'probe', ok: true, ...o });

describe('critical path', () => {
  it("adds a probe's work before each ask, and leaves out waits for a slot", () => {
    const trace = [
      op({ id: 1, askedMs: 0, startMs: 0, endMs: 100, waitedFor: null }),
      // Asked 10 ms after its predecessor ended, then queued 40 ms for a slot: 10 + 100 count.
      op({ id: 2, askedMs: 110, startMs: 150, endMs: 250, waitedFor: 1 }),
      op({ id: 3, askedMs: 0, startMs: 100, endMs: 250, waitedFor: null }),
    ];
    const chain = criticalPath(trace);
    expect(chain.ms).toBe(210);
    expect(chain.operations.map((o) => o.id)).toEqual([1, 2]);
  });
});

describe('ideal schedule', () => {
  const independent = (n: number) =>
    Array.from({ length: n }, (_, i) => op({ id: i + 1, askedMs: 0, startMs: 0, endMs: 100, waitedFor: null }));

  it('keeps to the slot limit, and DNS queries hold no slot', () => {
    expect(idealScheduleMs(independent(4), 2)).toBe(200);
    expect(idealScheduleMs(independent(4), 4)).toBe(100);
    const dns = independent(2).map((o) => ({ ...o, kind: 'dns' as const }));
    expect(idealScheduleMs(dns, 1)).toBe(100);
  });

  it('starts the head of the longest chain first', () => {
    const trace = [
      ...independent(3),
      // Waits for operation 3: started first, 3 and then 4 fit beside 1 and 2 in two slots.
      op({ id: 4, askedMs: 100, startMs: 100, endMs: 200, waitedFor: 3 }),
    ];
    expect(idealScheduleMs(trace, 2)).toBe(200);
  });
});
