// Every way a published MCP discovery document names a server endpoint. No form is settled: SEP-2127 server
// cards list `remotes[]`, SEP-1649 manifests carry `transport.endpoint`, and many sites publish the client
// configuration their users paste (`mcpServers` or `servers`, a map or a list of entries with `url`, `serverUrl`
// or `httpUrl`). A discovery rule may ask that a document names an endpoint; it may not prefer one of these forms.
import { asArray, asObject, asString, type JsonObject } from './json-value.ts';

/** The member of the document that declared an endpoint. */
export type EndpointSource = 'remotes' | 'transport' | 'endpoint' | 'url' | 'mcpServers' | 'servers' | 'endpoints';

export interface DeclaredEndpoint {
  /** The URL as written (absolute or relative). */
  url: string;
  transport: string | null;
  declared_in: EndpointSource;
}

/** URL members of a client-configuration entry: `url` (Claude, Cursor, VS Code), `serverUrl` (Windsurf), `httpUrl`. */
const ENTRY_URL_KEYS = ['url', 'serverUrl', 'httpUrl'] as const;

function entryEndpoint(value: unknown, source: EndpointSource): DeclaredEndpoint | null {
  if (typeof value === 'string') return value === '' ? null : { url: value, transport: null, declared_in: source };
  const entry = asObject(value);
  if (!entry) return null;
  const url = ENTRY_URL_KEYS.map((k) => asString(entry[k])).find((u) => u !== null && u !== '');
  if (!url) return null;
  const transport = asString(entry.type) ?? asString(entry.transport) ?? (entry.httpUrl === url ? 'http' : null);
  return { url, transport, declared_in: source };
}

/** A list of entries or a map of named entries; entries without a URL (stdio `command` servers) name no endpoint. */
function entries(value: unknown, source: EndpointSource): DeclaredEndpoint[] {
  const list = asArray(value) ?? Object.values(asObject(value) ?? {});
  return list.map((item) => entryEndpoint(item, source)).filter((e) => e !== null);
}

/** Keys of an `endpoints` object that name an MCP transport; other keys (`agenda`, `search`) name site APIs. */
const TRANSPORT_KEY = /^(streamable[-_]?http|http|sse|mcp)$/i;

/** Endpoints of an `endpoints` object keyed by transport (`{"streamable-http": "https://…"}`) or a list. */
function keyedEndpoints(value: unknown): DeclaredEndpoint[] {
  const obj = asObject(value);
  if (!obj) return entries(value, 'endpoints');
  return Object.entries(obj).flatMap(([key, item]) => {
    const found = TRANSPORT_KEY.test(key) ? entryEndpoint(item, 'endpoints') : null;
    return found ? [{ ...found, transport: found.transport ?? key }] : [];
  });
}

/** Every endpoint the document declares, in a fixed order of members and in document order within each. */
export function declaredEndpoints(card: JsonObject): DeclaredEndpoint[] {
  const transport = asObject(card.transport);
  const fromTransport = transport
    ? entryEndpoint({ url: transport.endpoint ?? transport.url, type: transport.type }, 'transport')
    : null;
  return [
    ...entries(card.remotes, 'remotes'),
    ...(fromTransport ? [fromTransport] : []),
    ...[entryEndpoint(card.endpoint, 'endpoint')].filter((e) => e !== null),
    ...[entryEndpoint(card.url, 'url')].filter((e) => e !== null),
    ...entries(card.mcpServers, 'mcpServers'),
    ...entries(card.servers, 'servers'),
    ...keyedEndpoints(card.endpoints),
  ];
}
