// Instances of a fleet start together after a deploy, each setting the job engine up on the shared database:
// pg-boss's schema and the queues. pg-boss alone is not safe for that (one start failed on a duplicate schema,
// or two queue creations deadlocked: the SIGKILL fault test's timeouts on an idle machine); JobQueue.open sets
// the engine up one instance after another.
import { describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/batches/job-queue.ts';
import { openQueueDatabase } from '../../src/batches/queue-database.ts';
import { Batches, ITEM_QUEUE } from '../../src/service/batches.ts';
import { Webhooks } from '../../src/service/webhooks.ts';
import { freshSchema, postgresReachable } from '../payments/postgres.ts';

const pgUp = await postgresReachable();
const INSTANCES = 4;

describe.skipIf(!pgUp)('the job engine set up by instances starting together', () => {
  it('opens on every instance, with one schema and one of each queue', async () => {
    const schema = await freshSchema();
    const dbs = await Promise.all(
      Array.from({ length: INSTANCES }, () =>
        openQueueDatabase({ databaseUrl: schema.url, dataDir: '/nonexistent' }, () => undefined),
      ),
    );
    try {
      const opened = await Promise.allSettled(
        dbs.map((db) =>
          JobQueue.open(db, { maintenanceSeconds: 60, schedule: false, onError: () => undefined }, async (q) => {
            await Batches.prepare(q);
            await Webhooks.prepare(q);
          }),
        ),
      );
      expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'opened'))).toEqual(
        Array.from({ length: INSTANCES }, () => 'opened'),
      );
      const queues = await schema.query<{ name: string }>(
        `SELECT name FROM ${dbs[0]!.engineSchema}.queue WHERE name = $1`,
        [ITEM_QUEUE],
      );
      expect(queues).toHaveLength(1);
      for (const o of opened) if (o.status === 'fulfilled') await o.value.stop();
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await schema.drop();
    }
  }, 60_000);
});
