// The CPU headroom reads the event loop's real utilisation over periods of at least half a second; the clock is
// injected so the test moves through periods without waiting them out.
import { describe, expect, it } from 'vitest';
import { eventLoopHeadroom } from '../../src/service/cpu-headroom.ts';

const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('event loop headroom', () => {
  it('is busy after a period the loop spent running, and free again after one it spent waiting', async () => {
    let clock = 0;
    const headroom = eventLoopHeadroom(50, () => clock);
    expect(headroom.busy()).toBe(false);
    spin(60);
    // Within the period the reading stands, whatever the loop did.
    expect(headroom.busy()).toBe(false);
    clock += 500;
    expect(headroom.busy()).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(headroom.busy()).toBe(true);
    clock += 500;
    expect(headroom.busy()).toBe(false);
  });
});
