// MCP at /mcp end to end over HTTPS with the SDK's own client: both tools listed with the API schemas as input
// schemas, results identical to REST plus structuredContent, errors as isError results or JSON-RPC errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fetch as undiciFetch } from 'undici';
import { apiSchema } from '../../src/api/operations/api-schemas.ts';
import { startApiWorld, startTestService, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;
let client: Client;

beforeAll(async () => {
  world = await startApiWorld();
  svc = await startTestService({
    ...world.env,
    DVS_QUICK_RATE_LIMIT: '100000',
    DVS_MCP_ALLOWED_ORIGINS: 'https://console.example.org',
  });
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

  it('declares an output schema per tool: its document or an Error, each self-contained', async () => {
    const { tools } = await client.listTools();
    type Props = { properties: Record<string, { const?: string; enum?: string[] }> };
    type Output = { type: string; oneOf: unknown; $defs: Record<string, Props> };
    const quick = tools.find((t) => t.name === 'service_quickscan')!.outputSchema as unknown as Output;
    const full = tools.find((t) => t.name === 'service_fullvalidation')!.outputSchema as unknown as Output;
    expect(quick.oneOf).toEqual([{ $ref: '#/$defs/Report' }, { $ref: '#/$defs/Error' }]);
    expect(full.oneOf).toEqual([{ $ref: '#/$defs/FullValidationResult' }, { $ref: '#/$defs/Error' }]);
    expect(Object.keys(full.$defs.FullValidationResult!.properties)).toEqual(['certificate', 'report']);
    for (const schema of [quick, full]) {
      expect(schema.type).toBe('object');
      const text = JSON.stringify(schema);
      expect(text).not.toMatch(/"\$(schema|id)"/);
      for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g))
        expect(schema.$defs[ref!.replace('#/$defs/', '')]).toBeDefined();
    }
    expect(quick.$defs.Report!.properties.type).toEqual({ const: 'dvs.report' });
    expect(quick.$defs.Error!.properties.code!.enum).toContain('rate_limited');
  });

  it('gives exactly the REST ScanResult for a quick scan, with the report as structuredContent', async () => {
    // The SDK's client checks structuredContent against the tool's outputSchema: a mismatch would throw here.
    const result = await call('service_quickscan', { domain: 'good.test' });
    const rest = (await svc.post('/api/quickscan', { domain: 'good.test' })).json();
    expect(result).toEqual(rest);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ type: 'dvs.report', domain: 'good.test', tier: 'quick' });
    expect(result.structuredContent).toEqual(JSON.parse((result.content as { text: string }[])[1]!.text));
  });

  it('answers a full validation with the certificate and its report as structuredContent, the same as REST replays it', async () => {
    const token = svc.gate.issue();
    const result = await call('service_fullvalidation', { domain: 'good.test', payment_token: token });
    expect(result.isError).toBeUndefined();
    const structured = result.structuredContent as {
      certificate: { payload: { domain: string; verdict: string; score: number }; jws: string };
      report: { domain: string; tier: string; verdict: string; score: number };
    };
    const { payload } = structured.certificate;
    expect(payload.domain).toBe('good.test');
    expect(structured.report).toMatchObject({
      domain: 'good.test',
      tier: 'full',
      verdict: payload.verdict,
      score: payload.score,
    });
    expect(JSON.parse((result.content as { text: string }[])[1]!.text)).toEqual(structured.certificate);
    const rest = (await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token })).json() as {
      content: { text: string }[];
      structuredContent: unknown;
    };
    expect(rest.content[1]!.text).toBe((result.content as { text: string }[])[1]!.text);
    expect(rest.structuredContent).toEqual(structured);
  });

  it('returns the REST message as an isError result, and the REST Error body with its code as structuredContent', async () => {
    const cases: [string, Record<string, unknown>, string | undefined][] = [
      ['service_quickscan', { domain: 'https://good.test' }, 'invalid_domain'],
      ['service_quickscan', { domain: 'x'.repeat(254) }, 'invalid_domain'],
      ['service_quickscan', { domain: 'good.test', extra: true }, undefined],
      ['service_quickscan', {}, undefined],
      ['service_fullvalidation', { domain: 'good.test' }, 'payment_required'],
      ['service_fullvalidation', { domain: 'good.test', payment_token: 'tok_unknown' }, 'payment_required'],
    ];
    for (const [tool, args, code] of cases) {
      const result = await call(tool, args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      const rest = await svc.post(tool === 'service_quickscan' ? '/api/quickscan' : '/api/fullvalidation', args);
      expect(rest.status).toBeGreaterThanOrEqual(400);
      const body = rest.json() as { error: string; code?: string };
      expect(body.code).toBe(code);
      expect(result.content).toEqual([{ type: 'text', text: body.error }]);
      expect(result.structuredContent).toEqual(body);
    }
    const nx = await call('service_quickscan', { domain: 'nxdomain.test' });
    expect(nx.isError).toBe(true);
    expect((nx.content as { text: string }[])[0]!.text).toMatch(/NXDOMAIN/);
    expect(nx.structuredContent).toEqual({
      error: (nx.content as { text: string }[])[0]!.text,
      code: 'not_resolvable',
    });
    expect(nx).toEqual((await svc.post('/api/quickscan', { domain: 'nxdomain.test' })).json());
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    await expect(call('service_nothing', {})).rejects.toBeInstanceOf(McpError);
  });
});

describe('MCP over HTTP', () => {
  const rpcHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });

  it('answers OPTIONS and every other method but POST with one Allow: POST', async () => {
    const options = await svc.call('OPTIONS', '/mcp');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('POST');
    for (const method of ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH']) {
      const res = await svc.call(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe('POST');
      if (method !== 'HEAD') expect((res.json() as { error: string }).error).toMatch(/stateless/);
    }
  });

  it('refuses a present Origin that is neither its own nor allowed with 403 (MCP transport 2025-11-25)', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://localhost']) {
      const res = await svc.call('POST', '/mcp', { body: toolsList, headers: { ...rpcHeaders, origin } });
      expect(res.status, origin).toBe(403);
      expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    for (const origin of [svc.url, 'https://console.example.org', undefined]) {
      const headers = origin ? { ...rpcHeaders, origin } : rpcHeaders;
      const res = await svc.call('POST', '/mcp', { body: toolsList, headers });
      expect(res.status, origin).toBe(200);
    }
  });

  it('answers valid JSON that is not a JSON-RPC message with -32600 Invalid Request, not a parse error', async () => {
    const bodies = [
      '{}',
      '{"jsonrpc":"2.0","id":1}',
      '"x"',
      '42',
      'null',
      '[]',
      '[1]',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
    ];
    for (const body of bodies) {
      const res = await svc.call('POST', '/mcp', { body, headers: rpcHeaders });
      expect(res.status, body).toBe(400);
      expect(res.json(), body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    for (const body of ['{"jsonrpc":', 'x', '']) {
      const res = await svc.call('POST', '/mcp', { body, headers: rpcHeaders });
      expect(res.json(), body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
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
