// A batch item whose site or address is at its politeness limit is put off before it is claimed: its row is not
// written, and its job is enqueued again to start later.
import { describe, expect, it } from 'vitest';
import type { BatchStore, ClaimedItem } from '../../src/batches/batch-store.ts';
import type { FetchedJob, JobQueue, NewJob } from '../../src/batches/job-queue.ts';
import { Batches, ITEM_QUEUE, type BatchDeps, type ItemJob } from '../../src/service/batches.ts';
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
  it('is put off without a claim, its job enqueued again to start later', async () => {
    const before = Date.now();
    const first = await runOne(job(), full);
    expect(first.claims).toBe(0);
    expect(first.completed).toEqual(['job-1']);
    expect(first.enqueued).toHaveLength(1);
    expect(first.enqueued[0]!.data).toEqual(job());
    expect(first.enqueued[0]!.startAfter!.getTime()).toBeGreaterThan(before);
  });

  it('runs when its places are free, and a job from an older instance finds its domain in the store', async () => {
    const ran = await runOne(job({ domain: undefined }), free);
    expect(ran.domainReads).toBe(1);
    expect(ran.claims).toBe(1);
    expect(ran.enqueued).toEqual([]);
    expect(ran.completed).toEqual(['job-1']);
  });
});
