// The batch API end to end on PostgreSQL: accounts and keys (401, 404 across accounts), per-entry rejection and
// dedupe, the results as NDJSON and CSV with a cursor, and the limits (413 and 429 with nothing enqueued).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresReachable } from '../payments/postgres.ts';
import { ndjson, newAccount, startBatchService, type BatchService } from './helpers.ts';

const pgUp = await postgresReachable();

describe.skipIf(!pgUp)('the batch API', () => {
  let svc: BatchService;

  beforeAll(async () => {
    svc = await startBatchService({}, { maxBatch: 5, domainsPerDay: 8 });
  }, 60_000);
  afterAll(async () => svc?.stop());

  it('accepts a quick batch, rejecting bad and repeated entries on their own, and streams the results', async () => {
    const res = await svc.api('POST', '/api/batches', {
      mode: 'quick',
      domains: ['good.test', 'GOOD.test.', 'https://x/', 'nxdomain.test'],
    });
    expect(res.status).toBe(202);
    const accepted = res.json() as { id: string; status: string; total: number; rejected: unknown[] };
    expect(res.headers.location).toBe(`/api/batches/${accepted.id}`);
    expect(accepted).toMatchObject({ status: 'queued', total: 2 });
    expect(accepted.rejected).toEqual([
      { index: 1, domain: 'GOOD.test.', code: 'duplicate', error: 'good.test is earlier in this batch' },
      expect.objectContaining({ index: 2, domain: 'https://x/', code: 'invalid_domain' }),
    ]);
    const status = await svc.finished(accepted.id);
    expect(status).toMatchObject({ mode: 'quick', status: 'done', total: 2, done: 1, failed: 1 });
    expect(status.started_at).toEqual(expect.any(String));

    const results = await svc.api('GET', `/api/batches/${accepted.id}/results`);
    expect(results.headers['content-type']).toBe('application/x-ndjson');
    const lines = ndjson(results.text);
    expect(lines.map((l) => l.domain).sort()).toEqual(['good.test', 'nxdomain.test']);
    const good = lines.find((l) => l.domain === 'good.test')!;
    expect([typeof good.verdict, typeof good.score, typeof good.ruleset]).toEqual(['string', 'number', 'string']);
    expect(lines.find((l) => l.domain === 'nxdomain.test')).toMatchObject({
      verdict: null,
      error: { code: 'not_resolvable' },
    });

    const resumed = ndjson(
      (await svc.api('GET', `/api/batches/${accepted.id}/results?after=${lines[0]!.cursor as string}`)).text,
    );
    expect(resumed).toEqual(lines.slice(1));
    const csv = await svc.api('GET', `/api/batches/${accepted.id}/results`, undefined, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe('cursor,domain,verdict,score,ruleset,finished_at,certificate_id,error_code,error_message');
    expect(rows).toHaveLength(3);
    expect((await svc.api('DELETE', `/api/batches/${accepted.id}`)).status).toBe(409);
  }, 60_000);

  it('answers 400 when no entry is valid, 413 over max-batch and 429 over the quota, enqueuing nothing', async () => {
    expect((await svc.api('POST', '/api/batches', { mode: 'quick', domains: ['a b', '1.2.3.4'] })).status).toBe(400);
    expect((await svc.api('POST', '/api/batches', { mode: 'quick', domains: [] })).status).toBe(400);
    const tooMany = await svc.api('POST', '/api/batches', {
      mode: 'quick',
      domains: Array.from({ length: 6 }, (_, i) => `s${i}.good.test`),
    });
    expect(tooMany.status).toBe(413);
    expect(tooMany.json()).toMatchObject({ code: 'batch_too_large' });
    // 2 of the 8 a day are taken by the first test; 5 more fit, 7 do not.
    const overQuota = await svc.api('POST', '/api/batches', {
      mode: 'quick',
      domains: Array.from({ length: 5 }, (_, i) => `q${i}.good.test`),
    });
    expect(overQuota.status).toBe(202);
    const refused = await svc.api('POST', '/api/batches', { mode: 'quick', domains: ['a.good.test', 'b.good.test'] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      code: 'quota_exceeded',
      retry_after_s: Number(refused.headers['retry-after']),
    });
    const batches = await svc.schema.query<{ n: number }>('SELECT count(*)::int AS n FROM batches');
    expect(batches[0]!.n).toBe(2);
    expect((await svc.api('GET', '/api/account')).json()).toMatchObject({ name: 'acme', used_today: 7 });
  }, 60_000);

  it('refuses a missing, unknown or revoked key and a payment token with 401; another account sees 404', async () => {
    const body = { mode: 'quick', domains: ['good.test'] };
    const anonymous = await svc.post('/api/batches', body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toContain('Bearer');
    expect(anonymous.json()).toMatchObject({ code: 'unauthorized' });
    const token = await svc.post('/api/batches', body, { authorization: `Bearer dvs_test_${'a'.repeat(43)}` });
    expect(token.status).toBe(401);
    expect((token.json() as { error: string }).error).toContain('payment token is not an API key');
    expect((await svc.post('/api/batches', body, { authorization: `Bearer dvs_key_${'a'.repeat(43)}` })).status).toBe(
      401,
    );

    const mine = (await svc.api('POST', '/api/batches', { mode: 'quick', domains: ['good.test'] })).json() as {
      id: string;
    };
    const other = await newAccount(svc.schema.url, 'other');
    const asOther = { authorization: `Bearer ${other}` };
    expect((await svc.call('GET', `/api/batches/${mine.id}`, { headers: asOther })).status).toBe(404);
    expect((await svc.call('GET', `/api/batches/${mine.id}/results`, { headers: asOther })).status).toBe(404);
    expect((await svc.call('DELETE', `/api/batches/${mine.id}`, { headers: asOther })).status).toBe(404);
  }, 60_000);
});
