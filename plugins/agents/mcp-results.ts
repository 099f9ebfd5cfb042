// What an MCP endpoint's answers say, judged by the MCP SDK's own schemas of the protocol's messages. A module of
// its own, imported when a scan first talks to an endpoint: the SDK's schemas are 250 KB of zod that took a cold
// `dvs scan` 20 to 30 ms to load, and most domains declare no endpoint.
import { InitializeResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { asObject, asString, objectKeys } from './json-value.ts';

export { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

export interface InitializeFacts {
  result_valid: boolean;
  server_name: string | null;
  server_version: string | null;
  protocol_version: string | null;
  capabilities: string[];
}

/** Facts of an initialize result; `result_valid` says whether it has the shape the MCP schema requires. */
export function inspectInitializeResult(result: Record<string, unknown> | null): InitializeFacts {
  const serverInfo = asObject(result?.serverInfo);
  return {
    result_valid: result !== null && InitializeResultSchema.safeParse(result).success,
    server_name: asString(serverInfo?.name),
    server_version: asString(serverInfo?.version),
    protocol_version: asString(result?.protocolVersion),
    capabilities: objectKeys(result?.capabilities),
  };
}

/** The number of tools in a tools/list result, or null when the result is not a valid list. */
export function countListedTools(result: Record<string, unknown> | null): number | null {
  if (result === null) return null;
  const parsed = ListToolsResultSchema.safeParse(result);
  return parsed.success ? parsed.data.tools.length : null;
}
