// The embedded default (no PostgreSQL): accounts in the SQLite ledger, made while the service runs, and batches
// on pg-boss over PGlite in the data dir, durable across a restart. PGlite is created with the first batch, so
// this file pays its creation once (seconds of CPU).
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/accounts.ts';
import { embeddedQueueExists } from '../../src/batches/queue-database.ts';
import { startInProcess, tempDir } from '../payments/service.ts';
import { useWorld } from '../suite/world.ts';
import type { World } from '../world/index.ts';
import { ndjson } from './helpers.ts';

describe('batches on the embedded default', () => {
  it('keep a batch across a restart, with the account made by dvs accounts beside the running service', async () => {
    const world = (await useWorld()) as World;
    const dataDir = tempDir('dvs-embedded-batches-');
    try {
      const first = await startInProcess(world, dataDir, { DVS_BATCH_CONCURRENCY: '0', DVS_LOG_LEVEL: 'silent' });
      let key = '';
      const made = await run(['create', 'embedded'], {
        config: first.config,
        stdout: { write: (t: string) => (key += t.trim()) },
        stderr: { write: () => undefined },
      });
      expect(made).toBe(0);
      const auth = { authorization: `Bearer ${key}` };
      const submitted = await first.client.call(
        'POST',
        '/api/batches',
        { mode: 'quick', domains: ['good.test', 'nxdomain.test'] },
        auth,
      );
      expect(submitted.status).toBe(202);
      const { id } = JSON.parse(submitted.text) as { id: string };
      // This instance works no batches: the batch waits, stored, while the service stops.
      expect(JSON.parse((await first.client.call('GET', `/api/batches/${id}`, undefined, auth)).text)).toMatchObject({
        status: 'queued',
      });
      await first.stop();
      expect(embeddedQueueExists(dataDir)).toBe(true);

      const second = await startInProcess(world, dataDir, { DVS_LOG_LEVEL: 'silent' });
      try {
        let status: { status?: string } = {};
        const until = Date.now() + 60_000;
        while (status.status !== 'done' && Date.now() < until) {
          status = JSON.parse((await second.client.call('GET', `/api/batches/${id}`, undefined, auth)).text) as {
            status?: string;
          };
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(status).toMatchObject({ status: 'done', total: 2, done: 1, failed: 1 });
        const lines = ndjson((await second.client.call('GET', `/api/batches/${id}/results`, undefined, auth)).text);
        expect(lines.map((l) => l.domain).sort()).toEqual(['good.test', 'nxdomain.test']);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
