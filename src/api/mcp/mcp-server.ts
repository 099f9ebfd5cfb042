// The MCP side of /mcp, with the SDK: a low-level Server and a stateless Streamable HTTP transport per POST,
// and the tools run over the scan operations. Imported on the first MCP request (mcp-routes.ts): the SDK and the
// zod schemas it builds are a large part of what a starting service would otherwise load.
import type { Context } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../lib/log.ts';
import type { ProgressListener } from '../../service/scanner.ts';
import { ApiError, errorBody } from '../http/errors.ts';
import { MCP_TOOLS } from './mcp-tools.ts';
import type { Caller, OperationOutcome, ScanOperations } from '../operations/scan-operations.ts';
import { callerOf } from '../rest/scan-routes.ts';
import { SERVICE_INFO } from '../http/service-info.ts';

/** The operation's ScanResult as it is: REST sends the same object as its body. */
const toolResult = (outcome: OperationOutcome): CallToolResult => ({ ...outcome.result });

/** Who calls and where the service's documentation lives (for the docs link of an Error). */
interface ToolContext {
  caller: Caller;
  baseUrl: string;
  log: Logger;
  /** Set when the client sent a progressToken: tells it as each probe finishes. */
  onProgress?: ProgressListener;
}

/** Runs one tools/call; throws McpError only for what is a protocol problem (an unknown tool). */
async function callTool(
  ops: ScanOperations,
  name: string,
  args: unknown,
  { caller, baseUrl, log, onProgress }: ToolContext,
): Promise<CallToolResult> {
  const run =
    name === 'service_quickscan'
      ? ops.quickscan.bind(ops)
      : name === 'service_fullvalidation'
        ? ops.fullvalidation.bind(ops)
        : null;
  if (!run)
    throw new McpError(
      ErrorCode.InvalidParams,
      `unknown tool ${JSON.stringify(name)}; the tools are ${MCP_TOOLS.map((t) => t.name).join(', ')}`,
    );
  try {
    return toolResult(await run(args ?? {}, caller, onProgress));
  } catch (err) {
    if (err instanceof ApiError) {
      const structuredContent = errorBody(err, baseUrl) as unknown as Record<string, unknown>;
      return { content: [{ type: 'text', text: err.message }], isError: true, structuredContent };
    }
    log.warn(
      { err: (err as Error).message, stack: (err as Error).stack, tool: name },
      'unexpected error in an MCP tool',
    );
    throw new McpError(ErrorCode.InternalError, 'the service failed to handle this call; it has been logged');
  }
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

/** Answers one screened POST: `problems` are the tools/call arguments the screening refused, by tool name. */
export async function answerMcp(
  ops: ScanOperations,
  ctx: Context,
  settings: { baseUrl: string; log: Logger },
  body: unknown,
  problems: Map<string, string>,
): Promise<void> {
  const { log } = settings;
  const server = buildServer(ops, ctx, settings, problems);
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
}
