// MCP over Streamable HTTP at /mcp, stateless: every POST gets its own low-level Server and transport, so any
// instance can answer any request. GET (a server-to-client stream) and DELETE (ending a session) have no
// meaning without sessions and answer 405. Answers are plain JSON, except a tools/call that asks for progress
// (a progressToken in its _meta): that one is answered as an event stream, notifications/progress as each
// probe finishes, then the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from '../../lib/log.ts';
import { ApiError } from '../http/errors.ts';
import { BODY_LIMIT, EncodingError, parseJsonBody } from '../http/json-body.ts';
import { screenMcpBody } from './mcp-screen.ts';
import type { ScanOperations } from '../operations/scan-operations.ts';

export const MCP_PATH = '/mcp';

/** The JSON-RPC 2.0 error codes (section 5.1) this module answers with before the MCP SDK is loaded. */
const ErrorCode = { ParseError: -32700, InvalidRequest: -32600 } as const;

/** A JSON-RPC error with no id, for a body the protocol layer never got to read. */
function rpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', id: null, error: { code, message } };
}

export function mcpRoutes(ops: ScanOperations, baseUrl: string, log: Logger): Router {
  const router = new Router();
  const notAllowed = (ctx: Context) => {
    throw new ApiError(
      405,
      `${ctx.method} is not allowed on ${MCP_PATH}: this MCP server is stateless, so there is no stream to open or session to end; POST JSON-RPC messages instead`,
      '/docs/api#mcp',
      { Allow: 'POST' },
    );
  };
  router.get(MCP_PATH, notAllowed).delete(MCP_PATH, notAllowed);

  router.post(MCP_PATH, async (ctx) => {
    // A JSON body is parsed here under the service's size limit; anything else goes to the SDK, which answers
    // a wrong content type with its own JSON-RPC error.
    if (ctx.is('application/json')) {
      try {
        await parseJsonBody(ctx);
      } catch (raw) {
        const err = raw as { type?: string };
        if (err instanceof EncodingError) {
          ctx.set(err.headers);
          const code = err.status === 415 ? ErrorCode.InvalidRequest : ErrorCode.ParseError;
          return rpcError(ctx, err.status, code, err.message);
        }
        if (err.type === 'entity.too.large')
          return rpcError(ctx, 413, ErrorCode.InvalidRequest, `the message is larger than ${BODY_LIMIT}`);
        return rpcError(ctx, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
      }
    }
    const parsed: unknown = ctx.is('application/json') ? ctx.request.body : undefined;
    if (Array.isArray(parsed) && parsed.length === 0)
      return rpcError(ctx, 400, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch holds no message');
    const { body, problems } = screenMcpBody(parsed);
    const { answerMcp } = await import('./mcp-server.ts');
    await answerMcp(ops, ctx, { baseUrl, log }, body, problems);
  });
  return router;
}
