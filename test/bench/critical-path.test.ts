// The critical-path bench's yardstick (bench/schedule.ts), over a hand-made trace: the longest chain counts each
// operation from when it held its slot plus the probe's work before it asked.
import { describe, expect, it } from 'vitest';
import { criticalPath } from '../../bench/schedule.ts';
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
