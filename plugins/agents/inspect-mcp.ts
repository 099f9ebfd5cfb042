// Facts about MCP discovery documents and about a server's answers to initialize and tools/list.
// Three shapes are in use: the SEP-2127 server card (`name`, `version`, `remotes[]`), the older SEP-1649
// `mcp.json` manifest (`serverInfo`, `transport.endpoint`, `authentication`, `tools`), and the client
// configuration many sites publish as it is (`mcpServers` or `servers`). All are read; the shape found is itself
// a fact so rules can tell them apart, and every endpoint records the member that declared it.
import { asArray, asObject, asString, isHttpsUrl, parseJson, resolveUrl, urlOnSite } from './json-value.ts';
import { declaredEndpoints, type DeclaredEndpoint, type EndpointSource } from './mcp-endpoints.ts';
import { judgeServerCard, type ServerCardJudgement } from './mcp-server-card-schema.ts';
import { parseSse } from './parse-sse.ts';

export type McpCardFormat = 'server-card' | 'legacy-manifest' | 'client-config' | 'unknown';

export interface McpRemote {
  url: string;
  transport: string | null;
  declared_in: EndpointSource;
  on_site: boolean;
}

export interface McpCardFacts extends ServerCardJudgement {
  format: McpCardFormat | null;
  name: string | null;
  version: string | null;
  description: string | null;
  schema_url: string | null;
  protocol_version: string | null;
  remotes: McpRemote[];
  tools_count: number | null;
  auth_schemes: string[];
}

export const EMPTY_CARD: McpCardFacts = {
  format: null,
  name: null,
  version: null,
  description: null,
  schema_url: null,
  protocol_version: null,
  remotes: [],
  tools_count: null,
  auth_schemes: [],
  judged_against: null,
  schema_violations: null,
};

function remote(declared: DeclaredEndpoint, base: string, domain: string): McpRemote | null {
  const url = resolveUrl(declared.url, base);
  if (url === null) return null;
  return { url, transport: declared.transport, declared_in: declared.declared_in, on_site: urlOnSite(url, domain) };
}

function cardFormat(card: Record<string, unknown>): McpCardFormat {
  if (asArray(card.remotes)) return 'server-card';
  if (asObject(card.serverInfo) || asObject(card.transport)) return 'legacy-manifest';
  if (asObject(card.mcpServers) || asArray(card.mcpServers) || asObject(card.servers) || asArray(card.servers)) {
    return 'client-config';
  }
  return 'unknown';
}

/** The name a client configuration gives its first server: the key of a map entry, or a list entry's `name`. */
function configEntryName(card: Record<string, unknown>): string | null {
  for (const value of [card.mcpServers, card.servers]) {
    const list = asArray(value);
    if (list) return asString(asObject(list[0])?.name);
    const first = Object.keys(asObject(value) ?? {})[0];
    if (first !== undefined) return first;
  }
  return null;
}

/** Reads an MCP server card or legacy manifest; `base` resolves relative endpoint URLs. */
export function inspectMcpCard(json: unknown, base: string, domain: string): McpCardFacts {
  const card = asObject(json);
  if (!card) return EMPTY_CARD;
  const serverInfo = asObject(card.serverInfo);
  const remotes = declaredEndpoints(card)
    .map((d) => remote(d, base, domain))
    .filter((r) => r !== null);

  const auth = asObject(card.authentication) ?? asObject(card.auth);
  const schemes = asArray(auth?.schemes) ?? (asString(auth?.type) ? [auth?.type] : []);
  const tools = asArray(card.tools);

  return {
    format: cardFormat(card),
    name: asString(card.name) ?? asString(serverInfo?.name) ?? configEntryName(card),
    version: asString(serverInfo?.version) ?? asString(card.version),
    description: asString(card.description),
    schema_url: asString(card.$schema),
    protocol_version: asString(card.protocolVersion),
    remotes,
    tools_count: tools ? tools.length : null,
    auth_schemes: [...new Set(schemes.filter((s): s is string => typeof s === 'string'))].sort(),
    ...judgeServerCard(card),
  };
}

/** The remote worth one initialize: on the scanned site, https, and not the legacy SSE transport (GET stream). */
export function pickEndpoint(remotes: readonly McpRemote[]): McpRemote | null {
  return remotes.find((r) => isHttpsUrl(r.url) && r.on_site && r.transport !== 'sse') ?? null;
}

export interface JsonRpcReading {
  /** How the answer was framed: a JSON body or an SSE event stream; null when neither held a JSON-RPC message. */
  framing: 'json' | 'sse' | null;
  result: Record<string, unknown> | null;
  error_code: number | null;
}

/** Finds the JSON-RPC response with the given id in a JSON or event-stream body. */
export function readJsonRpc(body: string, mediaType: string | null, id: number): JsonRpcReading {
  let candidates: unknown[];
  let framing: 'json' | 'sse';
  if (mediaType === 'text/event-stream') {
    framing = 'sse';
    candidates = parseSse(body).map((event) => parseJson(event.data));
  } else {
    framing = 'json';
    const parsed = parseJson(body);
    // Not spread into another array: a batch of some 120,000 messages overflows the call stack as arguments.
    candidates = asArray(parsed) ?? [parsed];
  }
  for (const candidate of candidates) {
    const msg = asObject(candidate);
    if (!msg || msg.jsonrpc !== '2.0' || msg.id !== id) continue;
    const error = asObject(msg.error);
    return {
      framing,
      result: asObject(msg.result),
      error_code: error && typeof error.code === 'number' ? error.code : null,
    };
  }
  return { framing: null, result: null, error_code: null };
}
