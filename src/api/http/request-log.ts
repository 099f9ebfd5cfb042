// A request id on every request (kept from X-Request-Id when it is sane) and one log line per response.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { AppLogger } from '../../lib/log.ts';

const SANE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export interface RequestState {
  requestId: string;
  /** The origin of the caller's key directory, when its Web Bot Auth signature verified (caller-identity.ts). */
  verifiedAgent?: string;
}

/** The caller's X-Request-Id when it is sane, else a new id. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

/** What the line written for each response says. */
export interface RequestLine {
  req_id: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  verified_agent?: string;
}

export type RequestLineWriter = (line: RequestLine) => void;

/** Writes request lines, or null when the log's level leaves them out. */
export function requestLines(log: AppLogger): RequestLineWriter | null {
  // The request line holds only the fields above, none of them a secret, so it is written without the search for
  // secrets every other line pays for: on a cached answer that search cost as much as the rest of the line.
  const lines = log.child({}, { redact: [] });
  return lines.isLevelEnabled('info') ? (line) => lines.info(line, 'request') : null;
}

/** Whole milliseconds since `started` (process.hrtime.bigint()). */
export const msSince = (started: bigint): number => Math.round(Number(process.hrtime.bigint() - started) / 1e6);

export function requestLog(log: AppLogger): Middleware<RequestState> {
  const write = requestLines(log);
  return async function logRequest(ctx, next) {
    // Read and set on the raw request and response, past Koa's delegating accessors (a hot path).
    const requestId = requestIdOf(ctx.req);
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (write) {
        const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
        const line: RequestLine = {
          req_id: requestId,
          method: ctx.method,
          path: ctx.path,
          status,
          ms: msSince(started),
        };
        const agent = ctx.state.verifiedAgent;
        if (agent) line.verified_agent = agent;
        write(line);
      }
    }
  };
}
