// The embedded default (no PostgreSQL): accounts in the SQLite ledger, made while the service runs, and batches
// and monitors on pg-boss over PGlite in the data dir, durable across a restart: made by an instance that works
// neither and then stops, run by the next. PGlite is created with the first batch, so this file pays its
// creation once (seconds of CPU).
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/accounts.ts';
import { embeddedQueueExists } from '../../src/batches/queue-database.ts';
import { startInProcess, tempDir } from '../payments/service.ts';
import { useWorld } from '../suite/world.ts';
import type { World } from '../world/index.ts';
import { ndjson } from './helpers.ts';

interface MonitorBody {
  paused: boolean;
  paused_reason: string | null;
  credits: number;
  certificate_id: string | null;
  verdict: string | null;
}

describe('batches and monitors on the embedded default', () => {
  it('keep a batch and a monitor across a restart, then run them; each monitor run supersedes the last', async () => {
    const world = (await useWorld()) as World;
    const dataDir = tempDir('dvs-embedded-batches-');
    try {
      const env = { DVS_MONITOR_MIN_INTERVAL: 'PT2S', DVS_LOG_LEVEL: 'silent' };
      const first = await startInProcess(world, dataDir, { ...env, DVS_BATCH_CONCURRENCY: '0' });
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
      const tokens = (await first.payments.ledger.issue({ count: 2, source: 'test' })).map((t) => t.token);
      const created = await first.client.call(
        'POST',
        '/api/monitors',
        { domain: 'good.test', interval: 'PT2S', payment_tokens: tokens },
        auth,
      );
      expect(created.status).toBe(201);
      const monitorPath = `/api/monitors/${(JSON.parse(created.text) as { id: string }).id}`;
      // This instance works no batches and no monitor runs: both wait, stored, while the service stops.
      expect(JSON.parse((await first.client.call('GET', `/api/batches/${id}`, undefined, auth)).text)).toMatchObject({
        status: 'queued',
      });
      await first.stop();
      expect(embeddedQueueExists(dataDir)).toBe(true);

      const second = await startInProcess(world, dataDir, env);
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

        // The monitor's scheduled run survived the restart: two runs, one token each, the second superseding the
        // first (both may end between two readings of the monitor, so the first is found by its token).
        const end = Date.now() + 60_000;
        let two: MonitorBody;
        do {
          await new Promise((r) => setTimeout(r, 100));
          two = JSON.parse((await second.client.call('GET', monitorPath, undefined, auth)).text) as MonitorBody;
        } while (!two.paused && Date.now() < end);
        expect(two).toMatchObject({ verdict: 'CERTIFIED', credits: 0, paused_reason: 'no_credits' });
        const spent = await Promise.all(tokens.map(async (t) => (await second.payments.ledger.status(t))!));
        expect(spent.map((s) => s.state)).toEqual(['redeemed', 'redeemed']);
        const earlier = spent.map((s) => s.certificateId).filter((c) => c !== two.certificate_id);
        expect(earlier).toHaveLength(1);
        const superseded = await second.client.call('GET', `/api/certificates/${earlier[0]}/status`);
        expect(JSON.parse(superseded.text)).toMatchObject({ status: 'superseded', superseded_by: two.certificate_id });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
