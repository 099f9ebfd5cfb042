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
});
