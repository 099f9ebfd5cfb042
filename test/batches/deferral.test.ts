// A batch item whose site or address is at its politeness limit is put off before it is claimed: it is parked on
// the full place (no claim, no new job) until a release of that place wakes it; a place released between the
// refusal and the parking is seen by a second look, and the item is taken back.
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
  /** Parkings and take-backs, as `key` and `-key`. */
  parking: string[];
  /** Places whose parked items were woken. */
  woken: string[];
}

/** Runs one job through an instance's worker with fakes for the store and the queue; what they were asked. */
async function runOne(data: ItemJob, politeness: Politeness, woken = false): Promise<Recorded> {
  const seen: Recorded = { claims: 0, domainReads: 0, enqueued: [], completed: [], parking: [], woken: [] };
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
    park: async (_ref: unknown, key: string) => (seen.parking.push(key), true),
    // `woken`: a release woke the item between its parking and its second look.
    unpark: async (_ref: unknown, key: string) => (seen.parking.push(`-${key}`), !woken),
    wake: async (_tx: unknown, keys: string[]) => (seen.woken.push(...keys), []),
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
    db: { transaction: async (work: (tx: unknown) => Promise<unknown>) => work({ engine: {} }) },
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

const taken = (keys: string[]) => ({ release: async () => undefined, keys });
const full: Politeness = { tryAcquire: async () => ({ full: 'ip:127.0.0.9' }) };
const free: Politeness = { tryAcquire: async () => taken(['site:a.test', 'ip:127.0.0.9']) };
/** Full at the first look, free at the second (a holder gave its place back in between). */
const freedMeanwhile = (): Politeness => {
  let looks = 0;
  return {
    tryAcquire: async () => (looks++ === 0 ? { full: 'ip:127.0.0.9' } : taken(['site:a.test', 'ip:127.0.0.9'])),
  };
};
const job = (extra: Partial<ItemJob> = {}): ItemJob => ({
  batch: 'bat_1',
  seq: 1,
  account: 'acc',
  mode: 'quick',
  domain: 'a.test',
  ...extra,
});

describe('a batch item at its politeness limit', () => {
  it('is parked on the full place without a claim or a new job', async () => {
    const first = await runOne(job(), full);
    expect(first.claims).toBe(0);
    expect(first.completed).toEqual(['job-1']);
    expect(first.enqueued).toEqual([]);
    expect(first.parking).toEqual(['ip:127.0.0.9']);
    expect(first.woken).toEqual([]);
  });

  it('passes the wake-up it carried on when it parks on another place', async () => {
    const moved = await runOne(job({ woke: 'site:a.test' }), full);
    expect(moved.parking).toEqual(['ip:127.0.0.9']);
    expect(moved.woken).toEqual(['site:a.test']);
    const same = await runOne(job({ woke: 'ip:127.0.0.9' }), full);
    expect(same.woken).toEqual([]);
  });

  it('is taken back and run when its place was freed while it parked, and wakes the next when done', async () => {
    const ran = await runOne(job(), freedMeanwhile());
    expect(ran.parking).toEqual(['ip:127.0.0.9', '-ip:127.0.0.9']);
    expect(ran.claims).toBe(1);
    expect(ran.woken).toEqual(['site:a.test', 'ip:127.0.0.9']);
  });

  it('is left to the release that woke it meanwhile, and its places go back at once', async () => {
    const left = await runOne(job(), freedMeanwhile(), true);
    expect(left.claims).toBe(0);
    expect(left.completed).toEqual(['job-1']);
    expect(left.woken).toEqual(['site:a.test', 'ip:127.0.0.9']);
  });

  it('runs when its places are free, and a job from an older instance finds its domain in the store', async () => {
    const ran = await runOne(job({ domain: undefined }), free);
    expect(ran.domainReads).toBe(1);
    expect(ran.claims).toBe(1);
    expect(ran.enqueued).toEqual([]);
    expect(ran.parking).toEqual([]);
    expect(ran.completed).toEqual(['job-1']);
  });
});
