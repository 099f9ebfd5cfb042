// `dvs batch submit | status | results` against a running service: a list file in, the batch id out, --wait
// following it to the end (a progress line per change when stderr is not a terminal) and the results after.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/batch.ts';
import { postgresReachable } from '../payments/postgres.ts';
import { ndjson, startBatchService, type BatchService } from './helpers.ts';

const pgUp = await postgresReachable();

describe.skipIf(!pgUp)('dvs batch', () => {
  let svc: BatchService;
  let saved: string | undefined;

  beforeAll(async () => {
    svc = await startBatchService();
    saved = process.env.DVS_API_KEY;
    process.env.DVS_API_KEY = svc.key;
  }, 60_000);
  afterAll(async () => {
    if (saved === undefined) delete process.env.DVS_API_KEY;
    else process.env.DVS_API_KEY = saved;
    await svc?.stop();
  });

  async function dvs(...args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run([...args, '--base', svc.url, '--ca', path.join(svc.dataDir, 'tls', 'localhost-cert.pem')], {
      config: svc.config,
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t), isTTY: false },
    });
    return { code, stdout, stderr };
  }

  it('submits a list, waits with progress, and prints the results; status and results read it again', async () => {
    const list = path.join(svc.dataDir, 'domains.txt');
    writeFileSync(list, '# my fleet\ngood.test\n\nnxdomain.test\nnot a domain\n');
    const submitted = await dvs('submit', list, '--wait');
    expect(submitted.code).toBe(0);
    const [id, ...results] = submitted.stdout.split('\n').filter(Boolean);
    expect(id).toMatch(/^bat_[0-9a-f]{24}$/);
    expect(submitted.stderr).toContain('rejected line 3 (not a domain)');
    expect(submitted.stderr).toContain('2 domains accepted, 1 rejected');
    expect(submitted.stderr).toMatch(new RegExp(`${id} done: 2/2`));
    expect(results.map((l) => (JSON.parse(l) as { domain: string }).domain).sort()).toEqual([
      'good.test',
      'nxdomain.test',
    ]);

    const status = await dvs('status', id!);
    expect(JSON.parse(status.stdout)).toMatchObject({ id, status: 'done', total: 2 });
    const csv = await dvs('results', id!, '--csv');
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'cursor,domain,verdict,score,ruleset,finished_at,certificate_id,error_code,error_message',
    );
    const after = await dvs('results', id!, '--after', '1');
    expect(ndjson(after.stdout)).toHaveLength(1);
    const missing = await dvs('status', 'bat_000000000000000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
  }, 60_000);

  it('pairs --full domains with --tokens line by line, and refuses a list of another length', async () => {
    const list = path.join(svc.dataDir, 'full.txt');
    const tokens = path.join(svc.dataDir, 'tokens.txt');
    writeFileSync(list, 'good.test\nnxdomain.test\n');
    writeFileSync(tokens, `dvs_test_${'a'.repeat(43)}\n`);
    await expect(dvs('submit', list, '--full', '--tokens', tokens)).rejects.toThrow(/2 domains but 1 tokens/);
    await expect(dvs('submit', list, '--full')).rejects.toThrow(/--tokens/);
  });
});
