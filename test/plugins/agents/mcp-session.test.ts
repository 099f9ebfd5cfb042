// The MCP conversation records the session a stateful server hands out as the header value, so a rule can judge
// it against the transport's grammar; a stateless server's answer carries none.
import { describe, expect, it } from 'vitest';
import { talkToEndpoint } from '../../../plugins/agents/mcp-session.ts';
import { DocumentFetcher } from '../../../plugins/shared/fetch-document.ts';
import { fakeContext, fakeNet, type FakeRequest } from '../fake-net.ts';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    serverInfo: { name: 'fixture', version: '1.0.0' },
  },
};

function talk(headers: Record<string, string>) {
  const requests: FakeRequest[] = [];
  const net = fakeNet(
    {
      '/mcp': { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(INIT) },
    },
    [],
    requests,
  );
  const fetcher = new DocumentFetcher(fakeContext(net, 'agents'), 'good.test');
  return {
    facts: talkToEndpoint(fetcher, {
      url: 'https://good.test/mcp',
      transport: 'streamable-http',
      declared_in: 'remotes',
      on_site: true,
    }),
    requests,
  };
}

describe('talkToEndpoint', () => {
  it('records the Mcp-Session-Id as sent and carries it on the later requests', async () => {
    const { facts, requests } = talk({ 'mcp-session-id': 'session 42' });
    expect((await facts).session_id).toBe('session 42');
    expect(requests.slice(1).map((r) => r.opts.headers?.['mcp-session-id'])).toEqual(['session 42', 'session 42']);
  });

  it('records no session for a stateless server, and bounds a long one', async () => {
    expect((await talk({}).facts).session_id).toBeNull();
    expect((await talk({ 'mcp-session-id': 'x'.repeat(1000) }).facts).session_id).toHaveLength(256);
  });
});
