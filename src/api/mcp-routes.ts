// MCP over Streamable HTTP at /mcp, stateless: every POST gets its own low-level Server and transport, so any
// instance can answer any request. GET (a server-to-client stream) and DELETE (ending a session) have no
// meaning without sessions and answer 405. Answers are plain JSON, except a tools/call that asks for progress
// (a progressToken in its _meta): that one is answered as an event stream, notifications/progress as each
// probe finishes, then the result.
import Router from '@koa/router';
import type { Context } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../lib/log.ts';
import type { ProgressListener } from '../service/scanner.ts';
import { ApiError } from './errors.ts';
import { BODY_LIMIT, EncodingError, parseJsonBody } from './json-body.ts';
import { screenMcpBody } from './mcp-screen.ts';
import { callTool, MCP_TOOLS } from './mcp-tools.ts';
import type { ScanOperations } from './scan-operations.ts';
import { callerOf } from './scan-routes.ts';
import { SERVICE_INFO } from './service-info.ts';

export const MCP_PATH = '/mcp';

/** A JSON-RPC error with no id, for a body the protocol layer never got to read. */
function rpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', id: null, error: { code, message } };
}

/** Whether a parsed body is a tools/call that asks for progress notifications. */
function wantsProgress(body: unknown): boolean {
  const message = body as Partial<CallToolRequest> | null;
  return message?.method === 'tools/call' && message.params?._meta?.progressToken !== undefined;
}

/** Progress as MCP notifications/progress for the request's token; a client gone away loses nothing else. */
function progressNotifier(
  request: CallToolRequest,
  send: (n: ServerNotification) => Promise<void>,
  log: Logger,
): ProgressListener | undefined {
  const progressToken = request.params._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return ({ probe, status, done, total }) => {
    const params = { progressToken, progress: done, total, message: `probe ${probe}: ${status}` };
    send({ method: 'notifications/progress', params }).catch((err: Error) =>
      log.debug({ err: err.message }, 'a progress notification was not delivered'),
    );
  };
}

function buildServer(
  ops: ScanOperations,
  ctx: Context,
  { baseUrl, log }: { baseUrl: string; log: Logger },
  problems: Map<string, string>,
): Server {
  const server = new Server(
    { name: SERVICE_INFO.name, title: SERVICE_INFO.title, version: SERVICE_INFO.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const problem = problems.get(request.params.name);
    if (problem !== undefined) throw new McpError(ErrorCode.InvalidParams, problem);
    const onProgress = progressNotifier(request, extra.sendNotification, log);
    const context = { caller: callerOf(ctx), baseUrl, log, ...(onProgress ? { onProgress } : {}) };
    return callTool(ops, request.params.name, request.params.arguments, context);
  });
  return server;
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
    const server = buildServer(ops, ctx, { baseUrl, log }, problems);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !wantsProgress(body),
    });
    ctx.respond = false;
    ctx.res.on('close', () => {
      // The answer has gone; a failure to tear down is worth a log line, never an unhandled rejection.
      const closeFailed = (err: Error) => log.warn({ err: err.message }, 'MCP transport did not close cleanly');
      transport.close().catch(closeFailed);
      server.close().catch(closeFailed);
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, body);
  });
  return router;
}
