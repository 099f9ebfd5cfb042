// tools/call messages whose params the SDK's own schema would reject with an internal error and a raw schema
// dump (arguments that are null, an array or a string; a name that is not a string). Each is set aside before
// the SDK sees it: its params are replaced by a well-formed call to a placeholder tool, and the tool handler
// answers that placeholder with -32602 and the message REST gives for the same input.
import { validationProblem } from '../operations/api-schemas.ts';
import { MCP_TOOLS } from './mcp-tools.ts';

const PLACEHOLDER = '\u0000invalid-call-';
const TOOL_SCHEMAS: Record<string, 'quickscan-request' | 'fullvalidation-request'> = {
  service_quickscan: 'quickscan-request',
  service_fullvalidation: 'fullvalidation-request',
};

export interface ScreenedBody {
  body: unknown;
  /** The -32602 message for each placeholder tool name. */
  problems: Map<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with a tools/call's params, in the words REST uses, or null. */
function callProblem(params: Record<string, unknown>): string | null {
  const { name, arguments: args } = params;
  if (typeof name !== 'string')
    return `params.name must be a string naming a tool; the tools are ${MCP_TOOLS.map((t) => t.name).join(', ')}`;
  if (args === undefined || isObject(args)) return null;
  const schema = TOOL_SCHEMAS[name];
  const problem = schema ? validationProblem(schema, args) : null;
  return `invalid arguments for ${name}: ${problem ?? 'the body must be a JSON object'}`;
}

function screenOne(message: unknown, problems: Map<string, string>): unknown {
  if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params)) return message;
  const problem = callProblem(message.params);
  if (problem === null) return message;
  const placeholder = PLACEHOLDER + problems.size;
  problems.set(placeholder, problem);
  return { ...message, params: { name: placeholder, arguments: {} } };
}

/** The body with every malformed tools/call set aside (a single message or a batch). */
export function screenMcpBody(body: unknown): ScreenedBody {
  const problems = new Map<string, string>();
  const screened = Array.isArray(body) ? body.map((m) => screenOne(m, problems)) : screenOne(body, problems);
  return { body: screened, problems };
}
