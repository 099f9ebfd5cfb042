// One place turns every failure into the Error body (schemas/api/error.json): a clear 4xx for what the
// caller can fix, a 5xx without internals for what they cannot. No stack trace ever leaves the process.
import type { Middleware } from 'koa';
import type { Logger } from '../lib/log.ts';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly docsPath?: string,
    readonly headers: Record<string, string> = {},
    /** A stable machine-readable name for the error (e.g. `busy`), when the caller should act on it. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface ErrorBody {
  error: string;
  docs?: string;
  code?: string;
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
  const body = (e: ApiError): ErrorBody => ({
    error: e.message,
    ...(e.docsPath ? { docs: opts.baseUrl + e.docsPath } : {}),
    ...(e.code ? { code: e.code } : {}),
  });
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
    } catch (raw) {
      const err = raw as Error & { status?: number };
      const api = err instanceof ApiError ? err : fromFrameworkError(err);
      if (api) {
        ctx.status = api.status;
        ctx.set(api.headers);
        ctx.body = body(api);
        return;
      }
      opts.log.warn({ err: err.message, stack: err.stack, path: ctx.path }, 'unexpected error');
      ctx.status = 500;
      ctx.body = { error: 'the service failed to handle this request; it has been logged' } satisfies ErrorBody;
    }
  };
}
