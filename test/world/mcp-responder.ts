// A route that is an MCP server over Streamable HTTP, answered by the MCP SDK: initialize, tools/list and
// tools/call of the tools the site declares (each call answers the tool's configured text). Stateless, as a
// server behind a load balancer is: every POST gets its own server and transport, and no session id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import type { McpServerSpec } from './site-config.ts';
import type { SiteRequest, SiteResponse } from './site-server.ts';

/**
 * The SDK is loaded on the first MCP request, so worlds without MCP sites start without it. Every server it makes
 * shares one JSON Schema validator: by default each made its own Ajv instance, about 1 ms of CPU per Quick Scan of
 * good.test.
 */
const sdk = async () => {
  const [{ Server }, { StreamableHTTPServerTransport }, types, { AjvJsonSchemaValidator }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]);
  return { Server, StreamableHTTPServerTransport, types, jsonSchemaValidator: new AjvJsonSchemaValidator() };
};
let loaded: ReturnType<typeof sdk> | null = null;

/** Header fields HTTP/2 does not have (RFC 9113 section 8.2.2). */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive']);

/**
 * The SDK sets Connection: keep-alive on event streams; over HTTP/2 Node drops it with a process warning, which
 * would read as a fault of the suite. The world leaves it out itself, as an HTTP/2 server does.
 */
function dropConnectionHeaders(res: Http2ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => Http2ServerResponse;
  const strip = (part: unknown): unknown =>
    part !== null && typeof part === 'object' && !Array.isArray(part)
      ? Object.fromEntries(Object.entries(part).filter(([name]) => !CONNECTION_SPECIFIC.has(name.toLowerCase())))
      : part;
  res.writeHead = (status: number, ...rest: unknown[]) => writeHead(status, ...rest.map(strip));
}

/** Answers one request at an MCP route; `headers` (the site's) go on every answer. */
export async function answerMcp(
  spec: McpServerSpec,
  req: SiteRequest,
  res: SiteResponse,
  headers: Record<string, string | string[]>,
): Promise<void> {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (req.method !== 'POST') {
    // Without sessions there is no stream to open (GET) or session to end (DELETE).
    res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' });
    return void res.end('POST JSON-RPC messages to this MCP endpoint.\n');
  }
  const { Server, StreamableHTTPServerTransport, types, jsonSchemaValidator } = await (loaded ??= sdk());
  const server = new Server(
    { name: spec.name, version: spec.version },
    { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator },
  );
  const tools = spec.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: { type: 'object' as const, ...t.input_schema },
  }));
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(types.CallToolRequestSchema, (request) => {
    const tool = spec.tools.find((t) => t.name === request.params.name);
    if (!tool) throw new types.McpError(types.ErrorCode.InvalidParams, `no tool named ${request.params.name}`);
    return { content: [{ type: 'text' as const, text: tool.answer }] };
  });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: spec.json_response,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  if ('stream' in res) dropConnectionHeaders(res);
  // The SDK's Node adapter serves HTTP/2's compatibility objects as it does HTTP/1.1's; its types name only the latter.
  await transport.handleRequest(req as IncomingMessage, res as ServerResponse);
}
