// REST: POST /api/quickscan and POST /api/fullvalidation. Translation only: parse the body, call the
// operation, send the ScanResult (an ApiError becomes the status and Error body in errors.ts).
import Router from '@koa/router';
import type { Context } from 'koa';
import { chooseContentCoding, codedBytes, type ContentCoding } from '../http/content-coding.ts';
import { jsonBody } from '../http/json-body.ts';
import { jsonBytes } from '../http/json-bytes.ts';
import type { RequestState } from '../http/request-log.ts';
import type { Caller, OperationOutcome, ScanOperations } from '../operations/scan-operations.ts';

export const callerOf = (ctx: Context): Caller => ({
  client: ctx.ip,
  authorization: ctx.get('authorization'),
  verifiedAgent: (ctx.state as RequestState).verifiedAgent ?? null,
});

/** Set as the header itself: the type is already in its full form, with nothing for Koa's lookup to add. */
export const QUICK_SCAN_TYPE = 'application/json; charset=utf-8';

/**
 * A Quick Scan's answer in the coding the client reads best, made once per cache entry; Content-Length,
 * Content-Digest and the signature follow from the bytes sent (response-signing.ts).
 */
export function quickScanBytes(
  outcome: OperationOutcome,
  acceptEncoding: string | undefined,
): { coding: ContentCoding; bytes: Buffer | Promise<Buffer> } {
  const coding = chooseContentCoding(acceptEncoding);
  return { coding, bytes: codedBytes(jsonBytes(outcome.result), coding) };
}

export function scanRoutes(ops: ScanOperations): Router {
  const router = new Router();

  router.post('/api/quickscan', jsonBody(), async (ctx) => {
    const outcome = await ops.quickscan(ctx.request.body, callerOf(ctx));
    ctx.set('X-Cache', outcome.cached ? 'hit' : 'miss');
    ctx.set('Content-Type', QUICK_SCAN_TYPE);
    const { coding, bytes } = quickScanBytes(outcome, ctx.get('Accept-Encoding') || undefined);
    // Vary is usually not set yet (caller identity adds Signature for a verified agent): set, not parsed and merged.
    if (ctx.res.hasHeader('Vary')) ctx.vary('Accept-Encoding');
    else ctx.res.setHeader('Vary', 'Accept-Encoding');
    if (coding !== 'identity') ctx.set('Content-Encoding', coding);
    ctx.body = Buffer.isBuffer(bytes) ? bytes : await bytes;
  });

  router.post('/api/fullvalidation', jsonBody(), async (ctx) => {
    ctx.body = (await ops.fullvalidation(ctx.request.body, callerOf(ctx))).result;
  });

  return router;
}
