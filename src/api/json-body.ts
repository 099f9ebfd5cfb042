// Request bodies: JSON only, size-limited, parsed once (the operation validates them against its schema).
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from './errors.ts';

export const BODY_LIMIT = '16kb';

/** The JSON body parser alone, for a route that answers other content types itself (MCP). */
export const jsonBodyParser = bodyParser({
  enableTypes: ['json'],
  jsonLimit: BODY_LIMIT,
  encoding: 'utf-8',
  jsonStrict: true,
});

/** Parses the JSON body (refusing any other content type) and keeps it on ctx.request.body. */
export function jsonBody(): Middleware {
  return async function requireJson(ctx, next) {
    if (!ctx.is('application/json')) {
      throw new ApiError(415, 'send the body as JSON with Content-Type: application/json', '/docs/api#requests');
    }
    await jsonBodyParser(ctx, next);
  };
}
