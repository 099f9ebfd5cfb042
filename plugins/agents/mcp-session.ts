// One short conversation with a declared MCP endpoint over Streamable HTTP: initialize, the initialized
// notification, and tools/list. Three POSTs at most; nothing is called. A stateless server answers without a
// session; a stateful one hands out Mcp-Session-Id, which the later requests carry.
import { challengeSchemes } from './inspect-payment.ts';
import { readJsonRpc, type McpRemote } from './inspect-mcp.ts';
import type { InitializeFacts } from './mcp-results.ts';
import { parseContentType } from '../../src/net/content-type.ts';
import { failureFact } from '../../src/net/failure-fact.ts';
import { NetError } from '../../src/net/types.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';

export interface McpEndpointFacts extends InitializeFacts {
  url: string;
  status: number | null;
  content_type: string | null;
  error: string | null;
  framing: 'json' | 'sse' | null;
  jsonrpc_error_code: number | null;
  /** The Mcp-Session-Id the initialize answer carried, cut to 256 characters; null when it carried none. */
  session_id: string | null;
  www_authenticate_schemes: string[];
  resource_metadata_url: string | null;
  tools_list_status: number | null;
  tools_count: number | null;
}

const MAX_BYTES = 256 * 1024;
/** Enough for any session id a server means (a UUID, a JWT); the evidence stays bounded. */
const SESSION_ID_CHARS = 256;
const CLIENT_INFO = { name: 'domain-validation-service', version: '0.1.0' };

function post(fetcher: DocumentFetcher, url: string, message: object, headers: Record<string, string>) {
  return fetcher.send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
    maxBodyBytes: MAX_BYTES,
  });
}

/** The resource_metadata parameter of a Bearer challenge (RFC 9728 section 5.1), when present. */
function resourceMetadata(header: string | undefined): string | null {
  return header ? (/resource_metadata\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? null) : null;
}

export async function talkToEndpoint(fetcher: DocumentFetcher, remote: McpRemote): Promise<McpEndpointFacts> {
  // The judgements of answers come with the SDK's schemas, loaded when a scan first talks to an endpoint.
  const { countListedTools, inspectInitializeResult, LATEST_PROTOCOL_VERSION } = await import('./mcp-results.ts');
  const facts: McpEndpointFacts = {
    url: remote.url,
    status: null,
    content_type: null,
    error: null,
    framing: null,
    jsonrpc_error_code: null,
    result_valid: false,
    server_name: null,
    server_version: null,
    protocol_version: null,
    capabilities: [],
    session_id: null,
    www_authenticate_schemes: [],
    resource_metadata_url: null,
    tools_list_status: null,
    tools_count: null,
  };
  const target = fetcher.target(remote.url);
  try {
    const init = await post(
      fetcher,
      target,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
      },
      {},
    );
    facts.status = init.status;
    facts.content_type = parseContentType(init.headers['content-type']).mediaType;
    facts.www_authenticate_schemes = challengeSchemes(init.headers['www-authenticate'] ?? null);
    facts.resource_metadata_url = resourceMetadata(init.headers['www-authenticate']);
    const session = init.headers['mcp-session-id'];
    facts.session_id = session === undefined ? null : session.slice(0, SESSION_ID_CHARS);
    const reading = readJsonRpc(init.body.toString('utf8'), facts.content_type, 1);
    facts.framing = reading.framing;
    facts.jsonrpc_error_code = reading.error_code;
    Object.assign(facts, inspectInitializeResult(reading.result));
    if (!facts.result_valid) return facts;

    const headers: Record<string, string> = {
      'mcp-protocol-version': facts.protocol_version ?? LATEST_PROTOCOL_VERSION,
    };
    if (session !== undefined) headers['mcp-session-id'] = session;
    await post(fetcher, target, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const list = await post(fetcher, target, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, headers);
    facts.tools_list_status = list.status;
    facts.tools_count = countListedTools(
      readJsonRpc(list.body.toString('utf8'), parseContentType(list.headers['content-type']).mediaType, 2).result,
    );
  } catch (err) {
    // Only a network failure is a fact; anything else is a bug in this probe and must not vanish here.
    if (!(err instanceof NetError)) throw err;
    // A failure after initialize keeps what initialize showed; tools/list then stays unanswered (null).
    if (facts.status === null) facts.error = failureFact(err);
  }
  return facts;
}
