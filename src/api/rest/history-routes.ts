// A domain's validation history: GET /api/domains/{domain}/history, newest first, a page at a time
// (`limit`, and `before` taken from the previous page's `next`).
import Router from '@koa/router';
import { ApiError } from '../http/errors.ts';
import { HISTORY_MAX_LIMIT, HistoryCursorError, type DomainHistory } from '../../service/domain-history.ts';

const DOCS = '/docs/api#history';

function limitOf(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > HISTORY_MAX_LIMIT)
    throw new ApiError(400, `limit must be a whole number from 1 to ${HISTORY_MAX_LIMIT}`, DOCS);
  return Number(raw);
}

export function historyRoutes(history: DomainHistory, domainOf: (input: string) => string): Router {
  const router = new Router();
  router.get('/api/domains/:domain/history', async (ctx) => {
    const domain = domainOf(ctx.params.domain ?? '');
    const limit = limitOf(ctx.query.limit);
    const before = ctx.query.before;
    if (before !== undefined && typeof before !== 'string') throw new ApiError(400, 'give before once', DOCS);
    try {
      ctx.body = await history.page(domain, { ...(limit ? { limit } : {}), ...(before ? { before } : {}) });
    } catch (err) {
      if (err instanceof HistoryCursorError) throw new ApiError(400, err.message, DOCS);
      throw err;
    }
    // Statuses change (expiry, revocation, a newer run): caches must ask again.
    ctx.set('Cache-Control', 'no-cache');
  });
  return router;
}
