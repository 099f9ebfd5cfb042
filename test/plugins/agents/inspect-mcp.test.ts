import { describe, it, expect } from 'vitest';
import { inspectMcpCard, pickEndpoint, readJsonRpc } from '../../../plugins/agents/inspect-mcp.ts';
import { countListedTools, inspectInitializeResult } from '../../../plugins/agents/mcp-results.ts';

const BASE = 'https://example.com/.well-known/mcp.json';

describe('inspectMcpCard', () => {
  it('reads a SEP-2127 server card', () => {
    const facts = inspectMcpCard(
      {
        $schema: 'https://static.modelcontextprotocol.io/schemas/server-card.json',
        name: 'com.example/weather',
        version: '1.2.0',
        description: 'Weather',
        remotes: [{ type: 'streamable-http', url: 'https://example.com/mcp' }],
      },
      BASE,
      'example.com',
    );
    expect(facts).toMatchObject({
      format: 'server-card',
      name: 'com.example/weather',
      version: '1.2.0',
      tools_count: null,
    });
    expect(facts.remotes).toEqual([
      { url: 'https://example.com/mcp', transport: 'streamable-http', declared_in: 'remotes', on_site: true },
    ]);
  });

  it('reads a legacy manifest and resolves a relative endpoint against the document', () => {
    const facts = inspectMcpCard(
      {
        serverInfo: { name: 'shop', version: '0.9' },
        protocolVersion: '2025-06-18',
        transport: { type: 'streamable-http', endpoint: '/mcp' },
        authentication: { required: true, schemes: ['oauth2', 'bearer'] },
        tools: [{ name: 'a' }, { name: 'b' }],
      },
      BASE,
      'example.com',
    );
    expect(facts).toMatchObject({
      format: 'legacy-manifest',
      name: 'shop',
      version: '0.9',
      protocol_version: '2025-06-18',
      tools_count: 2,
      auth_schemes: ['bearer', 'oauth2'],
    });
    expect(facts.remotes[0]?.url).toBe('https://example.com/mcp');
  });

  it('marks http and off-site endpoints', () => {
    const facts = inspectMcpCard(
      { remotes: [{ type: 'sse', url: 'http://mcp.example.com/sse' }, { url: 'https://other.test/mcp' }] },
      BASE,
      'example.com',
    );
    expect(facts.remotes.map((r) => [r.url.startsWith('https:'), r.on_site])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(pickEndpoint(facts.remotes)).toBeNull();
  });

  it('answers empty facts for JSON that is not an object', () => {
    expect(inspectMcpCard([1, 2], BASE, 'example.com')).toMatchObject({ format: null, name: null, remotes: [] });
  });
});

describe('readJsonRpc', () => {
  const result = {
    protocolVersion: '2025-06-18',
    capabilities: { tools: {}, logging: {} },
    serverInfo: { name: 's', version: '1' },
  };

  it('finds the response in a JSON body', () => {
    const reading = readJsonRpc(JSON.stringify({ jsonrpc: '2.0', id: 1, result }), 'application/json', 1);
    expect(reading.framing).toBe('json');
    expect(inspectInitializeResult(reading.result)).toEqual({
      result_valid: true,
      server_name: 's',
      server_version: '1',
      protocol_version: '2025-06-18',
      capabilities: ['logging', 'tools'],
    });
  });

  it('finds the response with the right id among SSE events', () => {
    const body = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 't', inputSchema: { type: 'object' } }] } })}\n\n`;
    const reading = readJsonRpc(body, 'text/event-stream', 2);
    expect(reading.framing).toBe('sse');
    expect(countListedTools(reading.result)).toBe(1);
  });

  it('reports a JSON-RPC error code', () => {
    expect(
      readJsonRpc('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}', 'application/json', 1),
    ).toEqual({ framing: 'json', result: null, error_code: -32601 });
  });

  it('finds nothing in HTML or a response to another id', () => {
    expect(readJsonRpc('<html></html>', 'text/html', 1).framing).toBeNull();
    expect(readJsonRpc('{"jsonrpc":"2.0","id":9,"result":{}}', 'application/json', 1).framing).toBeNull();
  });

  it('does not take an incomplete initialize result as valid', () => {
    expect(inspectInitializeResult({ serverInfo: { name: 's' } }).result_valid).toBe(false);
    expect(countListedTools({ tools: 'many' })).toBeNull();
  });
});
