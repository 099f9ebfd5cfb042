// The service-wide bound on concurrent scans: a slot per running scan, a short queue, refusals past it, and
// Full Validations first, with a part of the bound that Quick Scans never take.
import { describe, expect, it } from 'vitest';
import { createScanSlots, ScansBusyError } from '../../src/service/scan-slots.ts';

const options = { limit: 3, reservedForFull: 1, queueLength: 2, maxWaitMs: 200, retryAfterSeconds: 7 };

describe('scan slots', () => {
  it('runs up to the bound, queues a few, and refuses the rest with Retry-After', async () => {
    const slots = createScanSlots(options);
    const a = await slots.acquire('quick');
    await slots.acquire('quick');
    expect(slots.running).toBe(2);
    // The third slot is kept for Full Validations: two Quick Scans wait, the next is refused at once.
    const waiting = [slots.acquire('quick'), slots.acquire('quick')];
    const refused = await slots.acquire('quick').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ScansBusyError);
    expect((refused as ScansBusyError).retryAfterSeconds).toBe(7);
    a();
    a(); // a second release gives nothing back
    expect(slots.running).toBe(2);
    expect(slots.waiting).toBe(1);
    await waiting[0];
    // The other waiter's time runs out.
    await expect(waiting[1]).rejects.toBeInstanceOf(ScansBusyError);
    expect(slots.waiting).toBe(0);
  });

  it('gives a Full Validation its kept slot under a flood, and the next free slot before queued Quick Scans', async () => {
    const slots = createScanSlots({ ...options, maxWaitMs: 5000 });
    const quick = [await slots.acquire('quick'), await slots.acquire('quick')];
    const queuedQuick = slots.acquire('quick');
    const full = await slots.acquire('full');
    expect(slots.running).toBe(3);
    let fullGranted = false;
    let quickGranted = false;
    const secondFull = slots.acquire('full').then((r) => ((fullGranted = true), r));
    void queuedQuick.then(() => (quickGranted = true));
    quick[0]!();
    await secondFull;
    expect([fullGranted, quickGranted]).toEqual([true, false]);
    full();
    await queuedQuick;
    expect(quickGranted).toBe(true);
  });

  it('runs one Quick Scan per client: its next waits, one more is refused, and others go ahead', async () => {
    // Issue 31 item 7: one address with three scans of never-answering hosts held every Quick Scan slot.
    const slots = createScanSlots({ ...options, limit: 4, queueLength: 4, maxWaitMs: 5000, perClient: 1 });
    const first = await slots.acquire('quick', 'attacker');
    let secondGranted = false;
    const second = slots.acquire('quick', 'attacker').then((r) => ((secondGranted = true), r));
    await expect(slots.acquire('quick', 'attacker')).rejects.toBeInstanceOf(ScansBusyError);
    // Others are not held up by the attacker's waiting scan, nor refused for it.
    const others = [await slots.acquire('quick', 'user-1'), await slots.acquire('quick', 'user-2')];
    expect(slots.running).toBe(3);
    expect(secondGranted).toBe(false);
    first();
    const release = await second;
    expect(slots.running).toBe(3);
    for (const r of [release, ...others]) r();
    expect(slots.running).toBe(0);
  });

  it('gives a freed slot to the first waiting client below its bound, not to one already scanning', async () => {
    const slots = createScanSlots({
      ...options,
      limit: 3,
      reservedForFull: 1,
      queueLength: 4,
      maxWaitMs: 5000,
      perClient: 1,
    });
    const a = await slots.acquire('quick', 'a');
    const b = await slots.acquire('quick', 'b');
    const order: string[] = [];
    const aAgain = slots.acquire('quick', 'a').then((r) => (order.push('a'), r));
    const c = slots.acquire('quick', 'c').then((r) => (order.push('c'), r));
    b();
    await c;
    expect(order).toEqual(['c']);
    a();
    await aAgain;
    expect(order).toEqual(['c', 'a']);
  });

  it('runs batch items beside the bound, never in an interactive slot, and only while no interactive scan waits', async () => {
    const slots = createScanSlots({ ...options, maxWaitMs: 5000, batchLimit: 2 });
    const batch = [await slots.acquireBatch(), await slots.acquireBatch()];
    expect([slots.runningBatch, slots.running]).toEqual([2, 0]);
    let third = false;
    const next = slots.acquireBatch().then((release) => ((third = true), release));
    // Batch items hold no interactive slot: every Quick Scan and Full Validation still starts at once.
    const interactive = [await slots.acquire('quick'), await slots.acquire('quick'), await slots.acquire('full')];
    // A full validation waits for a slot (none is refused for batch work); meanwhile no batch item starts.
    const waitingFull = slots.acquire('full');
    batch[0]!();
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    interactive[0]!();
    await waitingFull;
    // The interactive bound is reached again: the batch item still waits.
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    interactive[1]!();
    (await next)();
    expect(third).toBe(true);
    batch[1]!();
    expect(slots.runningBatch).toBe(0);
  });

  it('narrows and widens the batch lane when told: items over a narrower limit finish, the next waits', async () => {
    const slots = createScanSlots({ ...options, batchLimit: 3 });
    const running = [await slots.acquireBatch(), await slots.acquireBatch(), await slots.acquireBatch()];
    expect(slots.takeBatchPeak()).toBe(3);
    slots.setBatchLimit(1);
    let started = false;
    const next = slots.acquireBatch().then((release) => ((started = true), release));
    running[0]!();
    running[1]!();
    await new Promise((r) => setTimeout(r, 10));
    expect([started, slots.runningBatch]).toEqual([false, 1]);
    // The peak since the last reading: the three that ran until the limit fell.
    expect(slots.takeBatchPeak()).toBe(3);
    expect(slots.takeBatchPeak()).toBe(1);
    slots.setBatchLimit(2);
    (await next)();
    expect(started).toBe(true);
    running[2]!();
    expect(slots.runningBatch).toBe(0);
  });
});
