// MCP over Streamable HTTP at /mcp, stateless: every POST gets its own low-level Server and transport, so any
// instance can answer any request. GET (a server-to-client stream) and DELETE (ending a session) have no
// meaning without sessions: every method but POST answers 405 and OPTIONS, all with the same `Allow: POST`.
// Answers are plain JSON, except a tools/call that asks for progress (a progressToken in its _meta): that one is
// answered as an event stream, notifications/progress as each probe finishes, then the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from '../../lib/log.ts';
import { ApiError } from '../http/errors.ts';
import { BODY_LIMIT, EncodingError, parseJsonBody } from '../http/json-body.ts';
import { originAllowed } from '../http/same-origin.ts';
import { invalidRequest, isJsonText } from './jsonrpc-message.ts';
import { screenMcpBody } from './mcp-screen.ts';
import type { ScanOperations } from '../operations/scan-operations.ts';

export const MCP_PATH = '/mcp';
/** The one method /mcp serves; OPTIONS and every 405 say so. */
const ALLOW = 'POST';

/** The JSON-RPC 2.0 error codes (section 5.1) this module answers with before the MCP SDK is loaded. */
const ErrorCode = { ParseError: -32700, InvalidRequest: -32600 } as const;

export interface McpRouteSettings {
  baseUrl: string;
  log: Logger;
  /** Origins besides the service's own whose pages may call /mcp (DVS_MCP_ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
}

/** A JSON-RPC error with no id, for a body the protocol layer never got to read. */
function rpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', id: null, error: { code, message } };
}

/** Parses a JSON body under the service's size limit; false when it has answered the error itself. */
async function readJson(ctx: Context): Promise<boolean> {
  try {
    await parseJsonBody(ctx);
  } catch (raw) {
    const err = raw as { type?: string; body?: unknown };
    if (err instanceof EncodingError) {
      ctx.set(err.headers);
      const code = err.status === 415 ? ErrorCode.InvalidRequest : ErrorCode.ParseError;
      rpcError(ctx, err.status, code, err.message);
      return false;
    }
    if (err.type === 'entity.too.large') {
      rpcError(ctx, 413, ErrorCode.InvalidRequest, `the message is larger than ${BODY_LIMIT}`);
      return false;
    }
    // The parser refuses a bare JSON scalar as it refuses bytes that are no JSON; only the latter is -32700.
    if (typeof err.body === 'string' && isJsonText(err.body))
      rpcError(ctx, 400, ErrorCode.InvalidRequest, 'Invalid Request: a message must be a JSON object');
    else rpcError(ctx, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
    return false;
  }
  // The parser reads an empty body as {}; no bytes are no JSON.
  if (ctx.request.length === 0) {
    rpcError(ctx, 400, ErrorCode.ParseError, 'Parse error: the body is empty');
    return false;
  }
  return true;
}

export function mcpRoutes(ops: ScanOperations, { baseUrl, log, allowedOrigins }: McpRouteSettings): Router {
  const router = new Router();
  // One route for every method, so the router never answers for /mcp with an Allow of its own.
  router.all(MCP_PATH, async (ctx) => {
    // A browser page on another origin must not reach the tools through a rebound DNS name (MCP transport,
    // 2025-11-25: a present, invalid Origin is answered 403); clients that send no Origin are not browsers.
    if (!originAllowed(ctx, baseUrl, allowedOrigins))
      return rpcError(
        ctx,
        403,
        ErrorCode.InvalidRequest,
        `Forbidden: requests from origin ${ctx.get('origin')} are not allowed`,
      );
    if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.body = '';
      ctx.set('Allow', ALLOW);
      return;
    }
    if (ctx.method !== 'POST')
      throw new ApiError(
        405,
        `${ctx.method} is not allowed on ${MCP_PATH}: this MCP server is stateless, so there is no stream to open or session to end; POST JSON-RPC messages instead`,
        '/docs/api#mcp',
        { Allow: ALLOW },
      );
    // A JSON body is parsed and checked here; anything else goes to the SDK, which answers a wrong content
    // type with its own JSON-RPC error.
    const json = ctx.is('application/json');
    if (json && !(await readJson(ctx))) return;
    const parsed: unknown = json ? ctx.request.body : undefined;
    const problem = json ? invalidRequest(parsed) : null;
    if (problem !== null) return rpcError(ctx, 400, ErrorCode.InvalidRequest, `Invalid Request: ${problem}`);
    const { body, problems } = screenMcpBody(parsed);
    const { answerMcp } = await import('./mcp-server.ts');
    await answerMcp(ops, ctx, { baseUrl, log }, body, problems);
  });
  return router;
}
