// Request bodies: JSON only, size-limited (after decompression), parsed once (the operation validates them
// against its schema). A body may come compressed in one of the encodings the parser decodes; any other
// Content-Encoding is a 415, and a body that does not decode is the caller's 400, never a 500. The usual call
// (no content coding, a declared length within the limit) is read directly: it needs none of the parser's
// decoding and limits, which cost more than the rest of a cached Quick Scan (bench/service.bench.ts).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import { lazyRequire } from '../../lib/lazy-require.ts';
import { ApiError } from './errors.ts';
import { parseRequestJson } from './request-json.ts';
import { SPACE_OR_TAB, trimOf } from '../../lib/trim.ts';

export const BODY_LIMIT = '16kb';
const BODY_LIMIT_BYTES = 16 * 1024;

/** The content codings a request body may use (RFC 9110 section 8.4.1), as the parser names them. */
export const ACCEPTED_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

const koaBodyParser = lazyRequire<{ bodyParser: typeof bodyParser }>('@koa/bodyparser');

/**
 * A @koa/bodyparser middleware, made at its first request: the package loads co-body and qs with it, 60 ms of
 * every start on 2 cores, which a JSON body without a content coding (the usual request) never needs.
 */
export function lazyBodyParser(options: Parameters<typeof bodyParser>[0]): Middleware {
  let parser: Middleware | undefined;
  return async (ctx, next) => {
    parser ??= koaBodyParser().bodyParser(options) as Middleware;
    await parser(ctx, next);
  };
}

/** The JSON body parser alone (no encoding checks), for a route that answers errors in its own format (MCP). */
export const jsonBodyParser = lazyBodyParser({
  enableTypes: ['json'],
  jsonLimit: BODY_LIMIT,
  encoding: 'utf-8',
  jsonStrict: true,
});

/** A size limit and the parser that keeps it. */
export interface BodyLimit {
  parser: Middleware;
  bytes: number;
}

const STANDARD: BodyLimit = { parser: jsonBodyParser, bytes: BODY_LIMIT_BYTES };

/** Batch submissions: 10,000 full items with their tokens are about 1.1 MB. */
export const BATCH_BODY_LIMIT = '8mb';
export const BATCH_BODY: BodyLimit = {
  parser: lazyBodyParser({ enableTypes: ['json'], jsonLimit: BATCH_BODY_LIMIT, encoding: 'utf-8', jsonStrict: true }),
  bytes: 8 * 1024 * 1024,
};

export class EncodingError extends ApiError {
  override name = 'EncodingError';
}

/**
 * The body's one content coding, lower-cased for the parser (codings are case-insensitive), or a 415 naming the
 * accepted ones, with Accept-Encoding as RFC 9110 section 15.5.16 asks.
 */
export function requireKnownEncoding(ctx: Context): void {
  const raw = trimOf(ctx.get('content-encoding'), SPACE_OR_TAB).toLowerCase();
  if (raw === '' || raw === 'identity') return;
  if ((ACCEPTED_ENCODINGS as readonly string[]).includes(raw)) {
    ctx.req.headers['content-encoding'] = raw;
    return;
  }
  throw new EncodingError(
    415,
    `Content-Encoding "${raw}" is not supported; send the body unencoded or in one of: ${ACCEPTED_ENCODINGS.join(', ')}`,
    '/docs/api#requests',
    { 'Accept-Encoding': ACCEPTED_ENCODINGS.join(', ') },
  );
}

/** True for the errors zlib raises on a body that is not what its Content-Encoding says. */
function isDecodingFailure(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown; status?: unknown };
  return e.status === undefined && typeof e.code === 'string' && /^(Z_|ERR_BROTLI|ERR__ERROR)/.test(e.code);
}

/** The declared length of a body that comes without a content coding and within the limit, else null. */
export function plainLength(headers: IncomingHttpHeaders, max = BODY_LIMIT_BYTES): number | null {
  const coding = headers['content-encoding'] ?? '';
  if (coding !== '' && trimOf(coding, SPACE_OR_TAB).toLowerCase() !== 'identity') return null;
  const declared = headers['content-length'] ?? '';
  if (!/^\d{1,8}$/.test(declared)) return null;
  const length = Number(declared);
  return length <= max ? length : null;
}

/** The error the parser gives for a body the client stopped sending (errors.ts answers it with a 400). */
const aborted = () =>
  Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted', expose: true });

/** All of a body whose length Node's HTTP parser holds to the declared one (see plainLength). */
export function readPlainBody(req: IncomingMessage, length: number): Promise<Buffer> {
  if (length === 0 || req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Listeners stay on the finished request, and are passed inline: each named closure made per request costs a
  // name definition under tsx. The error is made only for a request that did not arrive whole (an Error's stack
  // costs more than reading the body).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
      .on('error', () => reject(aborted()))
      .on('close', () => {
        if (!req.complete) reject(aborted());
      });
  });
}

/** Parses the JSON body into ctx.request.body, turning a body that does not decompress into a 400. */
export async function parseJsonBody(ctx: Context, limit: BodyLimit = STANDARD): Promise<void> {
  const length = plainLength(ctx.req.headers, limit.bytes);
  if (length !== null && ctx.request.body === undefined) {
    ctx.request.body = parseRequestJson((await readPlainBody(ctx.req, length)).toString('utf8'));
    return;
  }
  requireKnownEncoding(ctx);
  try {
    await limit.parser(ctx, async () => {});
  } catch (err) {
    if (!isDecodingFailure(err)) throw err;
    throw new EncodingError(
      400,
      `the request body is not valid ${ctx.get('content-encoding')} data (it does not decompress)`,
      '/docs/api#requests',
    );
  }
}

/** Parses the JSON body (refusing any other content type) and keeps it on ctx.request.body. */
export function jsonBody(limit: BodyLimit = STANDARD): Middleware {
  return async function requireJson(ctx, next) {
    // The usual header is compared as is; any other spelling goes to the media type parser.
    if (ctx.get('content-type') !== 'application/json' && !ctx.is('application/json')) {
      throw new ApiError(415, 'send the body as JSON with Content-Type: application/json', '/docs/api#requests');
    }
    await parseJsonBody(ctx, limit);
    await next();
  };
}
