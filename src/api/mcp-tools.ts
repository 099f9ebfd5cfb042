// The MCP tools: the two operations with their input schemas taken as-is from schemas/api, and their results
// turned into tool results. A caller's mistake (bad input, bad domain, payment, deadline) is a tool result with
// isError and the REST message; only protocol problems become JSON-RPC errors.
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../lib/log.ts';
import { apiSchema } from './api-schemas.ts';
import { ApiError } from './errors.ts';
import type { Caller, OperationOutcome, ScanOperations } from './scan-operations.ts';

type ToolInputSchema = Tool['inputSchema'];

/** A request schema as an MCP input schema: the same document without its own $schema/$id. */
function inputSchemaOf(name: 'quickscan-request' | 'fullvalidation-request'): ToolInputSchema {
  const { $schema: _schema, $id: _id, ...rest } = apiSchema(name);
  return rest as ToolInputSchema;
}

/**
 * A refusal REST answers with a 4xx or 503, as a tool result: the same message, and in `_meta` the same stable
 * `code` (e.g. `busy`) and Retry-After seconds an agent can act on.
 */
function apiErrorResult(err: ApiError): CallToolResult {
  const retryAfter = err.headers['Retry-After'];
  const meta = {
    ...(err.code ? { code: err.code } : {}),
    ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
  };
  return {
    content: [{ type: 'text', text: err.message }],
    isError: true,
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}

export const MCP_TOOLS: Tool[] = [
  {
    name: 'service_quickscan',
    title: 'Quick Scan a domain',
    description:
      'Free, indicative check of whether a domain is ready for AI agents: a verdict, a score and the top findings, from a fast subset of the rules. Returns a readable summary and the canonical JSON report (also as structuredContent).',
    inputSchema: inputSchemaOf('quickscan-request'),
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  },
  {
    name: 'service_fullvalidation',
    title: 'Full Validation of a domain',
    description:
      'Every rule, a verdict and an Ed25519-signed certificate, paid with one payment_token from the checkout. Repeating the token for the same domain returns the same certificate. Returns a readable summary and the certificate {payload, jws} (also as structuredContent).',
    inputSchema: inputSchemaOf('fullvalidation-request'),
    annotations: { readOnlyHint: false, openWorldHint: true, idempotentHint: true },
  },
];

function toolResult(outcome: OperationOutcome): CallToolResult {
  const result: CallToolResult = { content: outcome.result.content };
  if (outcome.result.isError) result.isError = true;
  if (outcome.structured) result.structuredContent = outcome.structured;
  return result;
}

/** Runs one tools/call; throws McpError only for what is a protocol problem (an unknown tool). */
export async function callTool(
  ops: ScanOperations,
  name: string,
  args: unknown,
  caller: Caller,
  log: Logger,
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
    return toolResult(await run(args ?? {}, caller));
  } catch (err) {
    if (err instanceof ApiError) return apiErrorResult(err);
    log.warn(
      { err: (err as Error).message, stack: (err as Error).stack, tool: name },
      'unexpected error in an MCP tool',
    );
    throw new McpError(ErrorCode.InternalError, 'the service failed to handle this call; it has been logged');
  }
}
