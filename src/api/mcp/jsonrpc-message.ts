// What makes parsed JSON a JSON-RPC 2.0 message MCP can carry (JSON-RPC 2.0 section 4 and 5, MCP's basic
// protocol): a request or notification names its method, a response answers an id with a result or an error.
// Valid JSON that is none of these is an Invalid Request (-32600), never a Parse error (-32700): that code is
// for bytes that are not JSON at all (JSON-RPC 2.0 section 5.1).

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** MCP request ids are strings or integers, never null. */
const isId = (v: unknown): boolean => typeof v === 'string' || Number.isInteger(v);

/** Why one message is not a JSON-RPC request, notification or response, or null when it is one. */
function messageProblem(message: unknown): string | null {
  if (!isObject(message)) return 'a message must be a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string') return 'method must be a string';
    if ('id' in message && !isId(message.id)) return 'id must be a string or an integer';
    if ('params' in message && !isObject(message.params)) return 'params must be an object';
    return null;
  }
  if (!isId(message.id)) return 'a message needs a method (a request or notification) or an id (a response)';
  if ('result' in message === 'error' in message) return 'a response carries exactly one of result and error';
  if ('error' in message) {
    const { error } = message;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string')
      return 'error must be an object with an integer code and a string message';
  }
  return null;
}

/** Why a body (one message, or a batch of them) is not JSON-RPC, or null when every message is one. */
export function invalidRequest(body: unknown): string | null {
  if (!Array.isArray(body)) return messageProblem(body);
  if (body.length === 0) return 'an empty batch holds no message';
  for (const [i, message] of body.entries()) {
    const problem = messageProblem(message);
    if (problem !== null) return `batch member ${i}: ${problem}`;
  }
  return null;
}

/** Whether text the body parser refused is JSON all the same (a bare string, number, boolean or null). */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
}
