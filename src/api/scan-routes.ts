// REST: POST /api/quickscan and POST /api/fullvalidation. Translation only: parse the body, call the
// operation, send the ScanResult (an ApiError becomes the status and Error body in errors.ts).
import Router from '@koa/router';
import type { Context } from 'koa';
import { chooseContentCoding, codedBytes } from './content-coding.ts';
import { jsonBody } from './json-body.ts';
import { jsonBytes } from './json-bytes.ts';
import type { RequestState } from './request-log.ts';
import type { Caller, ScanOperations } from './scan-operations.ts';

export const callerOf = (ctx: Context): Caller => ({
  client: ctx.ip,
  authorization: ctx.get('authorization'),
  verifiedAgent: (ctx.state as RequestState).verifiedAgent ?? null,
});

export function scanRoutes(ops: ScanOperations): Router {
  const router = new Router();

  router.post('/api/quickscan', jsonBody(), async (ctx) => {
    const outcome = await ops.quickscan(ctx.request.body, callerOf(ctx));
    ctx.set('X-Cache', outcome.cached ? 'hit' : 'miss');
    // Set as the header itself: the type is already in its full form, with nothing for Koa's lookup to add.
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    // The answer in the coding the client reads best, made once per cache entry; Content-Length, Content-Digest
    // and the signature follow from the bytes sent (response-signing.ts).
    const coding = chooseContentCoding(ctx.get('Accept-Encoding') || undefined);
    const coded = codedBytes(jsonBytes(outcome.result), coding);
    // Vary is usually not set yet (caller identity adds Signature for a verified agent): set, not parsed and merged.
    if (ctx.res.hasHeader('Vary')) ctx.vary('Accept-Encoding');
    else ctx.res.setHeader('Vary', 'Accept-Encoding');
    if (coding !== 'identity') ctx.set('Content-Encoding', coding);
    ctx.body = Buffer.isBuffer(coded) ? coded : await coded;
  });

  router.post('/api/fullvalidation', jsonBody(), async (ctx) => {
    ctx.body = (await ops.fullvalidation(ctx.request.body, callerOf(ctx))).result;
  });

  return router;
}
