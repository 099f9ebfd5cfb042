// /.well-known/mcp.json: where the MCP server is and what it offers. It carries both shapes agents read today:
// the server card (`name`, `version`, `remotes`) and the older manifest (`endpoint`, `transport`, `tools`,
// `authentication`), both pointing at the same endpoint.
import { MCP_PATH } from './mcp-routes.ts';
import { MCP_TOOLS } from './mcp-tools.ts';
import { SERVICE_INFO } from '../http/service-info.ts';

export function buildMcpManifest(baseUrl: string): Record<string, unknown> {
  const endpoint = `${baseUrl}${MCP_PATH}`;
  return {
    name: SERVICE_INFO.name,
    title: SERVICE_INFO.title,
    version: SERVICE_INFO.version,
    description: SERVICE_INFO.description,
    endpoint,
    transport: { type: 'streamable-http', endpoint },
    remotes: [{ type: 'streamable-http', url: endpoint }],
    authentication: { type: 'none' },
    tools: MCP_TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    documentation: `${baseUrl}/docs/api`,
  };
}
