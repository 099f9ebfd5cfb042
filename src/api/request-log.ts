// A request id on every request (kept from X-Request-Id when it is sane) and one log line per response.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppLogger } from '../lib/log.ts';

const SANE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export interface RequestState {
  requestId: string;
  log: AppLogger;
  /** The origin of the caller's key directory, when its Web Bot Auth signature verified (caller-identity.ts). */
  verifiedAgent?: string;
}

export function requestLog(log: AppLogger): Middleware<RequestState> {
  return async function logRequest(ctx, next) {
    const given = ctx.get('x-request-id');
    const requestId = SANE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    // A child logger costs more than a cached answer: made only for a handler that asks for it.
    let child: AppLogger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (child ??= log.child({ req_id: requestId })),
      configurable: true,
      enumerable: true,
    });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
      if (log.isLevelEnabled('info')) {
        const line = { req_id: requestId, method: ctx.method, path: ctx.path, status, ms: Math.round(ms) };
        const agent = ctx.state.verifiedAgent;
        log.info(agent ? { ...line, verified_agent: agent } : line, 'request');
      }
    }
  };
}
