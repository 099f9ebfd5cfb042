// Issue 38 item 2 where instances share PostgreSQL: the ledger's pruning runs on the job engine's scheduler
// (one job per tick for the whole fleet), not on a timer in every instance. The schedule is registered, and a
// tick's job, taken by a worker, clears the evidence of expired certificates and nothing else.
import { describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/batches/job-queue.ts';
import { openQueueDatabase } from '../../src/batches/queue-database.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { ledgerPruner } from '../../src/payments/ledger-retention.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';
import { PRUNE_CRON, PRUNE_QUEUE, prepareLedgerPruning, startLedgerPruning } from '../../src/service/ledger-pruning.ts';
import { certifyWith } from '../payments/log-fixtures.ts';
import { freshSchema, postgresReachable } from '../payments/postgres.ts';

const pgUp = await postgresReachable();
const DAY = 86_400_000;
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined };

describe.skipIf(!pgUp)('ledger pruning on the job engine', () => {
  it('is scheduled every ten minutes, and a tick clears the evidence of expired certificates only', async () => {
    const schema = await freshSchema();
    const ledger = await openLedger(loadConfig({ DVS_DATABASE_URL: schema.url, DVS_DATA_DIR: '/nonexistent' }));
    const db = await openQueueDatabase({ databaseUrl: schema.url, dataDir: '/nonexistent' }, () => undefined);
    let queue: JobQueue | null = null;
    try {
      const certify = (id: string, expiresAt: number) =>
        certifyWith(ledger, id, { expiresAt, evidence: Buffer.from(id) });
      await certify('dvc_expired', Date.now() - DAY);
      await certify('dvc_valid', Date.now() + 90 * DAY);

      queue = await JobQueue.open(db, { maintenanceSeconds: 60, onError: () => undefined }, prepareLedgerPruning);
      const schedules = await schema.query(`SELECT name, cron FROM ${db.engineSchema}.schedule`);
      expect(schedules).toEqual([{ name: PRUNE_QUEUE, cron: PRUNE_CRON }]);
      // The job a tick sends; the worker's first look takes it.
      await queue.enqueue(PRUNE_QUEUE, [{ data: {}, expireInSeconds: 60 }]);
      await startLedgerPruning(
        queue,
        ledgerPruner(ledger, { batch: 500, reportRetentionSeconds: null }).runOnce,
        quiet,
      );
      const held = async () =>
        (await schema.query<{ id: string }>('SELECT id FROM certificates WHERE evidence IS NOT NULL ORDER BY id')).map(
          (r) => r.id,
        );
      const until = Date.now() + 30_000;
      while ((await held()).length > 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(await held()).toEqual(['dvc_valid']);
    } finally {
      await queue?.stop();
      await db.close();
      await ledger.close();
      await schema.drop();
    }
  }, 60_000);
});
