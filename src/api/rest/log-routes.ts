// The certificate transparency log over HTTP: the signed tree head, a certificate's inclusion proof, and the
// consistency proof between two tree sizes. Only translation: the service computes, bad input is a 400.
import Router from '@koa/router';
import type { Context } from 'koa';
import { LogRequestError, type TransparencyLog } from '../../service/transparency-log.ts';
import { ApiError } from '../http/errors.ts';

const DOCS = '/docs/api#transparency-log';
const CERTIFICATE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A tree size as a plain decimal: no sign, no leading zero, no exponent. */
const SIZE = /^(0|[1-9][0-9]*)$/;

function sizeParam(ctx: Context, name: string, required: boolean): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined && !required) return undefined;
  if (raw === undefined) throw new ApiError(400, `${name} is required (a tree size)`, DOCS);
  if (Array.isArray(raw) || !SIZE.test(raw))
    throw new ApiError(400, `${name} must be one non-negative integer (a tree size), got ${JSON.stringify(raw)}`, DOCS);
  const n = Number(raw);
  // A well-formed number no log could reach is too large, not malformed (the query is capped well below this).
  if (!Number.isSafeInteger(n))
    throw new ApiError(
      400,
      `${name} ${raw.length > 40 ? `(${raw.length} digits)` : raw} is too large: no tree size exceeds ${Number.MAX_SAFE_INTEGER}`,
      DOCS,
    );
  return n;
}

/** The service's refusal of sizes the log cannot serve, as a 400. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof LogRequestError) throw new ApiError(400, err.message, DOCS);
    throw err;
  }
}

export function logRoutes(log: TransparencyLog): Router {
  const router = new Router();
  router.get('/log/sth', async (ctx) => {
    const size = sizeParam(ctx, 'tree_size', false);
    ctx.body = await answering(() => log.head(size));
    // The current head changes with every certificate; a head of a given size never does.
    ctx.set('Cache-Control', size === undefined ? 'no-cache' : 'public, max-age=86400, immutable');
  });
  router.get('/log/proof/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const size = sizeParam(ctx, 'tree_size', false);
    const proof = CERTIFICATE_ID.test(id) ? await answering(() => log.inclusion(id, size)) : null;
    if (!proof)
      throw new ApiError(
        404,
        `no certificate with id ${JSON.stringify(id.slice(0, 128))} is in this service's transparency log`,
        DOCS,
      );
    ctx.set('Cache-Control', size === undefined ? 'no-cache' : 'public, max-age=86400, immutable');
    ctx.body = proof;
  });
  router.get('/log/consistency', async (ctx) => {
    const from = sizeParam(ctx, 'from', true)!;
    const to = sizeParam(ctx, 'to', true)!;
    ctx.body = await answering(() => log.consistency(from, to));
    ctx.set('Cache-Control', 'public, max-age=86400, immutable');
  });
  return router;
}
