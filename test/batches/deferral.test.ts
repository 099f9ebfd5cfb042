// A batch item whose site or address is at its politeness limit is put off before it is claimed (its row is not
// written), and each further put-off waits twice as long, up to a bound: items of a crowded address do not cycle
// through the queue every few seconds.
import { describe, expect, it } from 'vitest';
import type { BatchStore, ClaimedItem } from '../../src/batches/batch-store.ts';
import type { FetchedJob, JobQueue, NewJob } from '../../src/batches/job-queue.ts';
import { Batches, deferralMs, ITEM_QUEUE, type BatchDeps, type ItemJob } from '../../src/service/batches.ts';
import type { Politeness } from '../../src/service/politeness.ts';

interface Recorded {
  claims: number;
  domainReads: number;
  enqueued: NewJob<ItemJob>[];
  completed: string[];
}

/** Runs one job through an instance's worker with fakes for the store and the queue; what they were asked. */
async function runOne(data: ItemJob, politeness: Politeness): Promise<Recorded> {
  const seen: Recorded = { claims: 0, domainReads: 0, enqueued: [], completed: [] };
  let fetched: FetchedJob<ItemJob> | null = { id: 'job-1', data };
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const item: ClaimedItem = {
    batchId: data.batch,
    seq: data.seq,
    accountId: data.account,
    mode: 'quick',
    domain: 'a.test',
    tokenDigest: null,
    claimId: 'c',
  };
  const store = {
    domain: async () => (seen.domainReads++, 'a.test'),
    claim: async () => (seen.claims++, item),
    finish: async () => true,
  } as unknown as BatchStore;
  const queue = {
    work: async () => 'dead-letter worker',
    fetch: async () => [fetched, (fetched = null)][0],
    enqueue: async (_name: string, jobs: NewJob<ItemJob>[]) => void seen.enqueued.push(...jobs),
    complete: async (name: string, id: string) => {
      expect(name).toBe(ITEM_QUEUE);
      seen.completed.push(id);
      finished();
    },
    fail: async () => finished(),
  } as unknown as JobQueue;
  const deps = {
    engine: async () => ({ store, queue }),
    slots: { acquireBatch: async () => () => undefined },
    politeness,
    site: (domain: string) => domain,
    addresses: async () => ['127.0.0.9'],
    quickScans: { runForBatch: async () => ({ report: { verdict: 'pass', score: 100, ruleset: { version: 'r' } } }) },
    rulesetVersion: 'r',
    leaseSeconds: { quick: 60, full: 120 },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
  } as unknown as BatchDeps;
  const batches = new Batches(deps);
  await batches.start();
  await done;
  await batches.stop();
  return seen;
}

const full: Politeness = { tryAcquire: async () => null };
const free: Politeness = { tryAcquire: async () => async () => undefined };
const job = (extra: Partial<ItemJob> = {}): ItemJob => ({
  batch: 'bat_1',
  seq: 1,
  account: 'acc',
  mode: 'quick',
  domain: 'a.test',
  ...extra,
});

describe('a batch item at its politeness limit', () => {
  it('is put off without a claim, and its next wait is twice as long', async () => {
    const before = Date.now();
    const first = await runOne(job(), full);
    expect(first.claims).toBe(0);
    expect(first.completed).toEqual(['job-1']);
    expect(first.enqueued).toHaveLength(1);
    expect(first.enqueued[0]!.data).toMatchObject({ seq: 1, domain: 'a.test', deferrals: 1 });
    const firstWait = first.enqueued[0]!.startAfter!.getTime() - before;
    expect(firstWait).toBeGreaterThanOrEqual(deferralMs(1));

    const again = await runOne(first.enqueued[0]!.data, full);
    expect(again.enqueued[0]!.data.deferrals).toBe(2);
    expect(again.enqueued[0]!.startAfter!.getTime() - Date.now()).toBeGreaterThan(deferralMs(1));
  });

  it('waits twice as long at each put-off, up to a bound', () => {
    const waits = Array.from({ length: 12 }, (_, i) => deferralMs(i + 1));
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBe(Math.min(2 * waits[i - 1]!, waits.at(-1)!));
    expect(waits[1]).toBe(2 * waits[0]!);
    expect(waits.at(-1)).toBeLessThanOrEqual(15_000);
  });

  it('runs when its places are free, and a job from an older instance finds its domain in the store', async () => {
    const ran = await runOne(job({ domain: undefined }), free);
    expect(ran.domainReads).toBe(1);
    expect(ran.claims).toBe(1);
    expect(ran.enqueued).toEqual([]);
    expect(ran.completed).toEqual(['job-1']);
  });
});
