// /healthz: the process answers. /readyz: it should get traffic: the ruleset is loaded, the ledger answers,
// and it is not shutting down (a draining instance says so, so the balancer stops sending it work).
import Router from '@koa/router';

export interface Readiness {
  /** Null when ready; otherwise why not. */
  problem(): Promise<string | null>;
}

export function healthRoutes(readiness: Readiness): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const problem = await readiness.problem();
    ctx.status = problem ? 503 : 200;
    ctx.body = problem ? { status: 'not_ready', error: problem } : { status: 'ready' };
  });
  return router;
}
