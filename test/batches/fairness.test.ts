// Accounts interleave: an account's large batch holds at most its concurrency of jobs in the shared queue, so
// a small batch from another account submitted after it is done long before the large one.
import { describe, expect, it } from 'vitest';
import { postgresReachable } from '../payments/postgres.ts';
import { useWorld } from '../suite/world.ts';
import { newAccount, startBatchService } from './helpers.ts';

const pgUp = await postgresReachable();

describe.skipIf(!pgUp)('batches of different accounts', () => {
  it("do not make one account's 2 items wait behind another's 24", async () => {
    const world = await useWorld();
    const svc = await startBatchService({ DVS_BATCH_CONCURRENCY: '2' }, { concurrency: 2 });
    try {
      const domains = world.sites.map((s) => s.domain);
      const large = (
        await svc.api('POST', '/api/batches', { mode: 'quick', domains: domains.slice(0, 24) })
      ).json() as {
        id: string;
      };
      const other = await newAccount(svc.schema.url, 'small');
      const small = JSON.parse(
        (
          await svc.post(
            '/api/batches',
            { mode: 'quick', domains: domains.slice(24, 26) },
            {
              authorization: `Bearer ${other}`,
            },
          )
        ).text,
      ) as { id: string };
      let smallStatus = '';
      while (smallStatus !== 'done') {
        const res = await svc.call('GET', `/api/batches/${small.id}`, {
          headers: { authorization: `Bearer ${other}` },
        });
        smallStatus = (JSON.parse(res.text) as { status: string }).status;
        await new Promise((r) => setTimeout(r, 25));
      }
      const largeNow = (await svc.api('GET', `/api/batches/${large.id}`)).json() as { done: number; failed: number };
      // Two jobs of the large batch were ahead in the queue, and the small one's came next.
      expect(largeNow.done + largeNow.failed).toBeLessThanOrEqual(12);
      // The rest of the large batch is not this test's business.
      expect((await svc.api('DELETE', `/api/batches/${large.id}`)).status).toBe(200);
    } finally {
      await svc.stop();
    }
  }, 180_000);
});
