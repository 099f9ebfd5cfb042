// REST: the batch API (/api/batches, /api/account), for callers with an API key. Translation only: the
// operations check the key and the body; results stream as NDJSON (or CSV), a page at a time.
import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ResultRow } from '../../batches/batch-store.ts';
import { BATCH_BODY, jsonBody } from '../http/json-body.ts';
import type { BatchOperations } from '../operations/batch-operations.ts';

export const NDJSON = 'application/x-ndjson';
const CSV_COLUMNS = [
  'cursor',
  'domain',
  'verdict',
  'score',
  'ruleset',
  'finished_at',
  'certificate_id',
  'error_code',
  'error_message',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (v: string | number | null | undefined): string => {
  const text = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

function line(row: ResultRow): Record<string, unknown> {
  return { cursor: String(row.resultNo), ...row.result };
}

function csvRow(row: ResultRow): string {
  const r = line(row);
  const error = r.error as { code: string; message: string } | undefined;
  const cells = { ...r, error_code: error?.code, error_message: error?.message } as Record<
    string,
    string | number | null | undefined
  >;
  return CSV_COLUMNS.map((c) => csvField(cells[c])).join(',') + '\r\n';
}

async function* ndjson(rows: AsyncIterable<ResultRow>) {
  for await (const row of rows) yield JSON.stringify(line(row)) + '\n';
}

async function* csv(rows: AsyncIterable<ResultRow>) {
  yield CSV_COLUMNS.join(',') + '\r\n';
  for await (const row of rows) yield csvRow(row);
}

export function batchRoutes(ops: BatchOperations): Router {
  const router = new Router();
  const account = (ctx: Context) => ops.account(ctx.get('authorization'));

  router.get('/api/account', async (ctx) => {
    ctx.body = ops.accountBody(await account(ctx));
  });

  router.post('/api/batches', jsonBody(BATCH_BODY), async (ctx) => {
    const caller = await account(ctx);
    const accepted = await ops.submit(caller, ctx.request.body);
    ctx.status = 202;
    ctx.set('Location', `/api/batches/${accepted.id}`);
    ctx.body = accepted;
  });

  router.get('/api/batches/:id', async (ctx) => {
    ctx.body = await ops.status(await account(ctx), ctx.params.id!);
  });

  router.delete('/api/batches/:id', async (ctx) => {
    ctx.body = await ops.cancel(await account(ctx), ctx.params.id!);
  });

  router.get('/api/batches/:id/results', async (ctx) => {
    const caller = await account(ctx);
    const after = typeof ctx.query.after === 'string' ? ctx.query.after : undefined;
    const rows = await ops.results(caller, ctx.params.id!, after);
    const asCsv = ctx.accepts(NDJSON, 'text/csv') === 'text/csv';
    ctx.set('Content-Type', asCsv ? 'text/csv; charset=utf-8' : NDJSON);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = Readable.from(asCsv ? csv(rows) : ndjson(rows));
  });

  return router;
}
