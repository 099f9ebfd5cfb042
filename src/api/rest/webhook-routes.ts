// REST: webhook endpoints of the caller's account (/api/webhooks), for callers with an API key. Translation only.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Account } from '../../payments/accounts.ts';
import { jsonBody } from '../http/json-body.ts';
import type { WebhookOperations } from '../operations/webhook-operations.ts';

export function webhookRoutes(ops: WebhookOperations, authenticate: (authorization: string) => Promise<Account>) {
  const router = new Router();
  const account = (ctx: Context) => authenticate(ctx.get('authorization'));

  router.post('/api/webhooks', jsonBody(), async (ctx) => {
    const created = await ops.register(await account(ctx), ctx.request.body);
    ctx.status = 201;
    ctx.set('Location', `/api/webhooks/${created.id}`);
    ctx.body = created;
  });

  router.get('/api/webhooks', async (ctx) => {
    ctx.body = await ops.list(await account(ctx));
  });

  router.get('/api/webhooks/:id', async (ctx) => {
    ctx.body = await ops.get(await account(ctx), ctx.params.id!);
  });

  router.delete('/api/webhooks/:id', async (ctx) => {
    await ops.remove(await account(ctx), ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/api/webhooks/:id/secret', async (ctx) => {
    ctx.body = await ops.rotate(await account(ctx), ctx.params.id!);
  });

  router.get('/api/webhooks/:id/deliveries', async (ctx) => {
    ctx.body = await ops.deliveries(await account(ctx), ctx.params.id!);
  });

  return router;
}
