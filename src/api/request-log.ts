// A request id on every request (kept from X-Request-Id when it is sane) and one log line per response.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppLogger } from '../lib/log.ts';

const SANE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export interface RequestState {
  requestId: string;
  /** The origin of the caller's key directory, when its Web Bot Auth signature verified (caller-identity.ts). */
  verifiedAgent?: string;
}

export function requestLog(log: AppLogger): Middleware<RequestState> {
  // The request line holds only the fields below, none of them a secret, so it is written without the search for
  // secrets every other line pays for: on a cached answer that search cost as much as the rest of the line.
  const lines = log.child({}, { redact: [] });
  const enabled = lines.isLevelEnabled('info');
  return async function logRequest(ctx, next) {
    // Read and set on the raw request and response, past Koa's delegating accessors (a hot path).
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (enabled) {
        const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
        const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
        const line = { req_id: requestId, method: ctx.method, path: ctx.path, status, ms };
        const agent = ctx.state.verifiedAgent;
        lines.info(agent ? { ...line, verified_agent: agent } : line, 'request');
      }
    }
  };
}
