// REST: the account's monitors (/api/monitors), for callers with an API key. Translation only.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Account } from '../../payments/accounts.ts';
import { jsonBody } from '../http/json-body.ts';
import type { MonitorOperations } from '../operations/monitor-operations.ts';

export function monitorRoutes(ops: MonitorOperations, authenticate: (authorization: string) => Promise<Account>) {
  const router = new Router();
  const account = (ctx: Context) => authenticate(ctx.get('authorization'));

  router.post('/api/monitors', jsonBody(), async (ctx) => {
    const created = await ops.create(await account(ctx), ctx.request.body);
    ctx.status = 201;
    ctx.set('Location', `/api/monitors/${created.id}`);
    ctx.body = created;
  });

  router.get('/api/monitors', async (ctx) => {
    ctx.body = await ops.list(await account(ctx), { limit: ctx.query.limit, after: ctx.query.after });
  });

  router.get('/api/monitors/:id', async (ctx) => {
    ctx.body = await ops.get(await account(ctx), ctx.params.id!);
  });

  router.patch('/api/monitors/:id', jsonBody(), async (ctx) => {
    ctx.body = await ops.update(await account(ctx), ctx.params.id!, ctx.request.body);
  });

  router.delete('/api/monitors/:id', async (ctx) => {
    await ops.remove(await account(ctx), ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/api/monitors/:id/tokens', jsonBody(), async (ctx) => {
    ctx.body = await ops.addTokens(await account(ctx), ctx.params.id!, ctx.request.body);
  });

  return router;
}
