// Time limits on a host run on host time: the time this process was held up (a blocked event loop, a CPU taken
// by others) is not the host's delay, and a limit fires only once the host itself has had its time.
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createDeadline } from '../../src/net/deadline.ts';
import { watchHost } from '../../src/net/host-clock.ts';

/** Holds the event loop for `ms`, as a page parse or a signature of another scan does. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('host clock', () => {
  it('leaves out the time the event loop was held up', async () => {
    const watch = watchHost();
    holdLoop(500);
    await turn();
    const held = watch.elapsed();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = watch.elapsed();
    watch.stop();
    expect(held).toBeLessThan(100);
    expect(after - held).toBeGreaterThan(0);
    // A stopped watch keeps its reading.
    expect(watch.elapsed()).toBe(watch.elapsed());
  });

  it('fires a deadline only after its time has passed on the host', async () => {
    const deadline = createDeadline(150);
    holdLoop(600);
    await turn();
    expect(deadline.signal.aborted).toBe(false);
    await once(deadline.signal, 'abort');
    expect(deadline.elapsed()).toBeGreaterThanOrEqual(150);
    expect(deadline.failure().code).toBe('timeout');
    deadline.clear();
  });

  it('reports aborted, not timeout, when the caller gives up first', () => {
    const outer = new AbortController();
    const deadline = createDeadline(10_000, outer.signal);
    outer.abort();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.failure().code).toBe('aborted');
    deadline.clear();
  });
});
