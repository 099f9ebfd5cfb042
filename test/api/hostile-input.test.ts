// Input a hostile caller sends, over REST and MCP: special-use names, bodies that do not decompress or come in
// an encoding the service does not speak, and MCP messages of the wrong shape. Each is a clear 4xx (or JSON-RPC
// error), never a 500 or a stack trace.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationProblem } from '../../src/api/operations/api-schemas.ts';
import { specialUseProblem } from '../../src/api/operations/special-use-names.ts';
import { startApiWorld, startTestService, type ApiResponse, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;

beforeAll(async () => {
  world = await startApiWorld();
  svc = await startTestService({ ...world.env, DVS_QUICK_RATE_LIMIT: '100000' });
});

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

function expectError(res: ApiResponse, status: number, pattern: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(validationProblem('error', body)).toBeNull();
  expect((body as { error: string }).error).toMatch(pattern);
  expect(res.text).not.toMatch(/\bat .*\.ts:\d+/);
}

describe('special-use names', () => {
  const reserved: [string, string][] = [
    ['hidden.onion', 'RFC 7686'],
    ['printer.home.arpa', 'RFC 8375'],
    ['1.2.0.192.in-addr.arpa', 'RFC 6761'],
    ['1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa', 'RFC 6761'],
    ['name.alt', 'RFC 9476'],
    ['printer.local', 'RFC 6762'],
    ['app.localhost', 'RFC 6761'],
    ['LOCALHOST.', 'RFC 6761'],
    ['nothing.invalid', 'RFC 6761'],
    ['docs.example', 'RFC 6761'],
  ];
  it.each(reserved)('answers 400 for %s, naming %s', async (domain, rfc) => {
    const pattern = new RegExp(`special-use name.*${rfc}`);
    expectError(await svc.post('/api/quickscan', { domain }), 400, pattern);
    const token = 'dvs_test_' + 'a'.repeat(43);
    expectError(await svc.post('/api/fullvalidation', { domain, payment_token: token }), 400, pattern);
  });

  it('refuses .test unless DVS_EXTRA_SUFFIXES opens it, and never opens the other names', () => {
    expect(specialUseProblem('good.test', [])).toMatch(/RFC 6761/);
    expect(specialUseProblem('good.test', ['test'])).toBeNull();
    expect(specialUseProblem('good.test', ['other'])).toMatch(/RFC 6761/);
    expect(specialUseProblem('printer.local', ['local'])).toMatch(/RFC 6762/);
    expect(specialUseProblem('example.com', [])).toBeNull();
    expect(specialUseProblem('notlocal', [])).toBeNull();
    expect(specialUseProblem('onion.example.org', [])).toBeNull();
  });
});

describe('compressed request bodies', () => {
  const json = Buffer.from(JSON.stringify({ domain: 'nxdomain.test' }));
  const send = (pathname: string, body: Buffer, encoding: string, accept?: string) =>
    svc.call('POST', pathname, {
      body: body as unknown as string,
      headers: {
        'content-type': 'application/json',
        'content-encoding': encoding,
        ...(accept ? { accept } : {}),
      },
    });

  it('decodes a gzip, deflate or br body, whatever the case of the coding', async () => {
    const bodies: [string, Buffer][] = [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
      ['GZip', gzipSync(json)],
    ];
    for (const [encoding, body] of bodies) {
      const res = await send('/api/quickscan', body, encoding);
      expect(res.status, `${encoding}: ${res.text}`).toBe(200);
    }
  });

  it.each([
    ['gzip', Buffer.from('not gzip at all')],
    ['gzip', gzipSync(json).subarray(0, 12)],
    ['deflate', Buffer.from('not deflate at all')],
    ['br', Buffer.from('not brotli at all, not at all')],
  ])('answers 400 for a corrupt %s body', async (encoding, body) => {
    expectError(await send('/api/quickscan', body, encoding), 400, /does not decompress/);
    expectError(await send('/api/fullvalidation', body, encoding), 400, /does not decompress/);
  });

  it.each(['compress', 'zstd', 'gzip, gzip', 'x-unknown'])(
    'answers 415 naming the accepted encodings for Content-Encoding: %s',
    async (encoding) => {
      const res = await send('/api/quickscan', json, encoding);
      expectError(res, 415, /not supported.*gzip, deflate, br/);
      expect(res.headers['accept-encoding']).toBe('gzip, deflate, br');
    },
  );

  it('answers MCP with a JSON-RPC error for a corrupt or unsupported encoding', async () => {
    const accept = 'application/json, text/event-stream';
    const message = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    const corrupt = await send('/mcp', Buffer.from('not gzip'), 'gzip', accept);
    expect(corrupt.status).toBe(400);
    expect(corrupt.json()).toMatchObject({ error: { code: -32700, message: /does not decompress/ } });
    const unsupported = await send('/mcp', message, 'zstd', accept);
    expect(unsupported.status).toBe(415);
    expect(unsupported.json()).toMatchObject({ error: { message: /gzip, deflate, br/ } });
    expect((await send('/mcp', gzipSync(message), 'gzip', accept)).status).toBe(200);
  });

  it('lists 415 in OpenAPI for every operation that takes a body', async () => {
    const spec = (await svc.call('GET', '/openapi.json')).json() as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    for (const p of ['/api/quickscan', '/api/fullvalidation', '/mcp'])
      expect(Object.keys(spec.paths[p]!.post!.responses), p).toContain('415');
  });
});

describe('malformed MCP messages', () => {
  const accept = { accept: 'application/json, text/event-stream' };
  const toolsCall = (id: number, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });
  type RpcReply = { id: unknown; error?: { code: number; message: string }; result?: unknown };

  it.each([
    ['null arguments', { name: 'service_quickscan', arguments: null }, /the body must be a JSON object/],
    ['array arguments', { name: 'service_quickscan', arguments: [] }, /the body must be a JSON object/],
    ['string arguments', { name: 'service_fullvalidation', arguments: 'good.test' }, /the body must be a JSON object/],
    ['a numeric tool name', { name: 5, arguments: {} }, /params.name must be a string.*service_quickscan/],
    ['a null tool name', { name: null, arguments: { domain: 'good.test' } }, /params.name must be a string/],
  ])('answers %s with -32602 and the REST message, no schema dump', async (_what, params, message) => {
    const res = await svc.post('/mcp', toolsCall(7, params), accept);
    expect(res.status).toBe(200);
    const reply = res.json() as RpcReply;
    expect(reply.id).toBe(7);
    expect(reply.error!.code).toBe(-32602);
    expect(reply.error!.message).toMatch(message);
    expect(reply.error!.message).not.toMatch(/invalid_type|expected record/);
  });

  it('answers each malformed call of a batch with -32602 and the others as usual', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      toolsCall(2, { name: 'service_quickscan', arguments: null }),
      toolsCall(3, { name: 'service_quickscan', arguments: { domain: 'printer.local' } }),
    ];
    const replies = (await svc.post('/mcp', batch, accept)).json() as RpcReply[];
    const byId = new Map(replies.map((r) => [r.id, r]));
    expect(byId.get(1)!.result).toBeDefined();
    expect(byId.get(2)!.error).toMatchObject({ code: -32602 });
    expect(byId.get(3)!.result).toMatchObject({ isError: true });
  });

  it('answers an empty batch with a JSON-RPC Invalid Request error, not 202', async () => {
    const res = await svc.post('/mcp', [], accept);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: /empty batch/ } });
  });
});
