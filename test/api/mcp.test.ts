// MCP at /mcp end to end over HTTPS with the SDK's own client: both tools listed with the API schemas as input
// schemas, results identical to REST plus structuredContent, errors as isError results or JSON-RPC errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fetch as undiciFetch } from 'undici';
import { apiSchema } from '../../src/api/api-schemas.ts';
import { startApiWorld, startTestService, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;
let client: Client;

beforeAll(async () => {
  world = await startApiWorld();
  svc = await startTestService({ ...world.env, DVS_QUICK_RATE_LIMIT: '100000' });
  // The SDK's transport over HTTPS, trusting the service's own certificate through an undici Agent.
  const fetchWithCa = ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher: svc.agent })) as unknown as typeof fetch;
  client = new Client({ name: 'dvs-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { fetch: fetchWithCa }));
});

afterAll(async () => {
  await client?.close();
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('MCP tools', () => {
  it('lists both tools with the request schemas as their input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['service_fullvalidation', 'service_quickscan']);
    const strip = (s: Record<string, unknown>) => {
      const { $schema: _s, $id: _i, ...rest } = s;
      return rest;
    };
    expect(tools.find((t) => t.name === 'service_quickscan')!.inputSchema).toEqual(
      strip(apiSchema('quickscan-request')),
    );
    expect(tools.find((t) => t.name === 'service_fullvalidation')!.inputSchema).toEqual(
      strip(apiSchema('fullvalidation-request')),
    );
  });

  it('gives the same content as REST for a quick scan, plus the report as structuredContent', async () => {
    const rest = (await svc.post('/api/quickscan', { domain: 'good.test' })).json() as { content: unknown };
    const result = await call('service_quickscan', { domain: 'good.test' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual(rest.content);
    expect(result.structuredContent).toMatchObject({ type: 'dvs.report', domain: 'good.test', tier: 'quick' });
  });

  it('answers a full validation with the certificate as structuredContent, the same as REST replays it', async () => {
    const token = svc.gate.issue();
    const result = await call('service_fullvalidation', { domain: 'good.test', payment_token: token });
    expect(result.isError).toBeUndefined();
    const structured = result.structuredContent as { payload: { domain: string }; jws: string };
    expect(structured.payload.domain).toBe('good.test');
    expect(JSON.parse((result.content as { text: string }[])[1]!.text)).toEqual(structured);
    const rest = (await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token })).json() as {
      content: { text: string }[];
    };
    expect(rest.content[1]!.text).toBe((result.content as { text: string }[])[1]!.text);
  });

  it('returns the REST message as an isError result for invalid input, an invalid domain, payment and an unresolvable domain', async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['service_quickscan', { domain: 'https://good.test' }, { domain: 'https://good.test' }],
      ['service_quickscan', { domain: 'good.test', extra: true }, { domain: 'good.test', extra: true }],
      ['service_quickscan', {}, {}],
      ['service_fullvalidation', { domain: 'good.test' }, { domain: 'good.test' }],
      [
        'service_fullvalidation',
        { domain: 'good.test', payment_token: 'tok_unknown' },
        { domain: 'good.test', payment_token: 'tok_unknown' },
      ],
    ];
    for (const [tool, args, body] of cases) {
      const result = await call(tool, args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      const rest = await svc.post(tool === 'service_quickscan' ? '/api/quickscan' : '/api/fullvalidation', body);
      expect(rest.status).toBeGreaterThanOrEqual(400);
      expect(result.content).toEqual([{ type: 'text', text: (rest.json() as { error: string }).error }]);
    }
    const nx = await call('service_quickscan', { domain: 'nxdomain.test' });
    expect(nx.isError).toBe(true);
    expect(nx.structuredContent).toBeUndefined();
    expect((nx.content as { text: string }[])[0]!.text).toMatch(/NXDOMAIN/);
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    await expect(call('service_nothing', {})).rejects.toBeInstanceOf(McpError);
  });
});

describe('MCP over HTTP', () => {
  it('answers GET and DELETE with 405 and the Error body', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await svc.call(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect((res.json() as { error: string }).error).toMatch(/stateless/);
    }
  });

  it('answers malformed JSON with a JSON-RPC parse error and an oversized message with 413', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const bad = await svc.call('POST', '/mcp', { body: '{"jsonrpc": "2.0", "method":', headers });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const big = await svc.call('POST', '/mcp', {
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(20_000) } }),
      headers,
    });
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('answers tools/list from a raw POST without a session (stateless)', async () => {
    const res = await svc.call('POST', '/mcp', {
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { tools: [{ name: 'service_quickscan' }, { name: 'service_fullvalidation' }] },
    });
  });
});
