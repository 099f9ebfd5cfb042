// One place turns every failure into the Error body (schemas/api/error.json): a clear 4xx for what the
// caller can fix, a 5xx without internals for what they cannot. No stack trace ever leaves the process.
import type { Middleware } from 'koa';
import type { Logger } from '../../lib/log.ts';
import type { Error as ErrorBody } from '../../lib/schema-types/api/error.ts';
import type { ErrorCode } from '../../service/scan-result.ts';

export type { ErrorBody, ErrorCode };

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly docsPath?: string,
    readonly headers: Record<string, string> = {},
    /** The stable code a program switches on (schemas/api/error.json), when the problem has one. */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

/** The Error body of an ApiError: the same on REST (the response body) and MCP (the tool's structuredContent). */
export function errorBody(e: ApiError, baseUrl: string): ErrorBody {
  const body: ErrorBody = { error: e.message };
  if (e.code) body.code = e.code;
  // A Retry-After the client is told in a header is told in the body too, for MCP clients that see no header.
  const retryAfter = Number(e.headers['Retry-After']);
  if (Number.isInteger(retryAfter) && retryAfter > 0) body.retry_after_s = retryAfter;
  if (e.docsPath) body.docs = baseUrl + e.docsPath;
  return body;
}

/** Statuses the framework or the body parser raise, with what to say about them. */
function fromFrameworkError(err: Error & { status?: number; type?: string; expose?: boolean }): ApiError | null {
  const status = err.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  // co-body marks a body it could not parse (or a bare JSON scalar, refused in strict mode) as a 400 SyntaxError.
  if (err instanceof SyntaxError)
    return new ApiError(400, 'the request body is not valid JSON (send a JSON object)', '/docs/api#requests');
  if (err.type === 'entity.too.large') return new ApiError(413, 'the request body is too large', '/docs/api#limits');
  if (err.type === 'entity.parse.failed' || err.type === 'entity.verify.failed')
    return new ApiError(400, 'the request body is not valid JSON', '/docs/api#requests');
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')
    return new ApiError(400, 'the request body must be UTF-8 JSON', '/docs/api#requests');
  if (err.type === 'request.aborted') return new ApiError(400, 'the request body was not received completely');
  return new ApiError(status, err.expose && err.message ? err.message : 'the request could not be processed');
}

export function errorHandler(opts: { baseUrl: string; log: Logger }): Middleware {
  return async function errors(ctx, next) {
    try {
      await next();
      // A handler that answered on the raw response itself (MCP) has already said everything.
      if (ctx.respond === false) return;
      if (ctx.status === 404 && ctx.body == null)
        throw new ApiError(404, `nothing is served at ${ctx.method} ${ctx.path}`, '/docs/api');
      if (ctx.status === 405 && ctx.body == null) {
        throw new ApiError(
          405,
          `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`,
          '/docs/api',
          { Allow: ctx.response.get('Allow') },
        );
      }
      // The router answers a method it implements on no path at all (TRACE, PROPFIND...) with a bare 501.
      if (ctx.status === 501 && ctx.body == null)
        throw new ApiError(501, `${ctx.method} is not a method this service implements`, '/docs/api');
    } catch (raw) {
      const err = raw as Error & { status?: number };
      const api = err instanceof ApiError ? err : fromFrameworkError(err);
      if (api) {
        ctx.status = api.status;
        ctx.set(api.headers);
        ctx.body = errorBody(api, opts.baseUrl);
        return;
      }
      opts.log.warn({ err: err.message, stack: err.stack, path: ctx.path }, 'unexpected error');
      ctx.status = 500;
      ctx.body = { error: 'the service failed to handle this request; it has been logged' } satisfies ErrorBody;
    }
  };
}
