// Every form of MCP discovery document in use names its endpoint; a document that names none is told apart.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { declaredEndpoints } from '../../../plugins/agents/mcp-endpoints.ts';
import { inspectMcpCard } from '../../../plugins/agents/inspect-mcp.ts';

const BASE = 'https://example.com/.well-known/mcp.json';

describe('declaredEndpoints', () => {
  it('reads the mcpServers map of a published client configuration', () => {
    const doc = {
      mcpServers: {
        docs: { type: 'http', url: 'https://example.com/mcp' },
        local: { command: 'npx', args: ['-y', 'example-mcp'] },
      },
    };
    expect(declaredEndpoints(doc)).toEqual([
      { url: 'https://example.com/mcp', transport: 'http', declared_in: 'mcpServers' },
    ]);
    expect(inspectMcpCard(doc, BASE, 'example.com')).toMatchObject({ format: 'client-config', name: 'docs' });
  });

  it('reads Windsurf serverUrl, Gemini httpUrl and the VS Code servers map', () => {
    expect(declaredEndpoints({ mcpServers: { a: { serverUrl: 'https://example.com/a' } } })[0]?.url).toBe(
      'https://example.com/a',
    );
    expect(declaredEndpoints({ mcpServers: { b: { httpUrl: 'https://example.com/b' } } })[0]?.transport).toBe('http');
    expect(declaredEndpoints({ servers: { c: { type: 'sse', url: 'https://example.com/c' } } })).toEqual([
      { url: 'https://example.com/c', transport: 'sse', declared_in: 'servers' },
    ]);
  });

  it('reads the server card, SEP-1649 and keyed forms', () => {
    expect(declaredEndpoints({ remotes: [{ type: 'streamable-http', url: 'https://example.com/mcp' }] })).toHaveLength(
      1,
    );
    expect(declaredEndpoints({ transport: { type: 'streamable-http', endpoint: '/mcp' } })[0]?.declared_in).toBe(
      'transport',
    );
    expect(declaredEndpoints({ endpoints: { 'streamable-http': 'https://example.com/mcp' } })).toEqual([
      { url: 'https://example.com/mcp', transport: 'streamable-http', declared_in: 'endpoints' },
    ]);
    expect(declaredEndpoints({ endpoint: 'https://example.com/mcp' })[0]?.declared_in).toBe('endpoint');
    // Site APIs listed under `endpoints` are not MCP endpoints.
    expect(declaredEndpoints({ endpoints: { agenda: '/api/agenda.json' } })).toEqual([]);
  });

  it('finds no endpoint where none is named', () => {
    expect(declaredEndpoints({ mcpServers: { local: { command: 'node', args: ['server.js'] } } })).toEqual([]);
    expect(declaredEndpoints({ mcpServers: { empty: { url: '' } } })).toEqual([]);
    expect(declaredEndpoints({ name: 'x', tools: [] })).toEqual([]);
  });
});

const url = fc.webUrl({ validSchemes: ['https'] });
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const urlKey = fc.constantFrom('url', 'serverUrl', 'httpUrl');
const form = fc.oneof(
  url.map((u) => ({ doc: { remotes: [{ type: 'streamable-http', url: u }] }, u })),
  url.map((u) => ({ doc: { transport: { type: 'streamable-http', endpoint: u } }, u })),
  fc.tuple(name, urlKey, url).map(([n, k, u]) => ({ doc: { mcpServers: { [n]: { [k]: u } } }, u })),
  fc.tuple(name, url).map(([n, u]) => ({ doc: { servers: { [n]: { type: 'http', url: u } } }, u })),
);

describe('every form in use', () => {
  test.prop([form])('names its endpoint', ({ doc, u }) => {
    expect(declaredEndpoints(doc).map((e) => e.url)).toEqual([u]);
    expect(inspectMcpCard(doc, BASE, 'example.com').remotes).toHaveLength(1);
  });

  test.prop([form])('names none once its URL member is removed', ({ doc }) => {
    const stripped = JSON.parse(
      JSON.stringify(doc).replace(/"(url|serverUrl|httpUrl|endpoint)":/g, '"note":'),
    ) as object;
    expect(declaredEndpoints(stripped as Record<string, unknown>)).toEqual([]);
  });
});
