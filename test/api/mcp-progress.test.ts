// MCP progress with the SDK's own client: a tools/call that sends a progressToken (the client's onprogress)
// hears notifications/progress as each probe of the scan finishes, then gets the same result as without one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { fetch as undiciFetch } from 'undici';
import { startApiWorld, startTestService, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;
let client: Client;

beforeAll(async () => {
  world = await startApiWorld();
  svc = await startTestService({ ...world.env, DVS_QUICK_RATE_LIMIT: '100000' });
  const fetchWithCa = ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher: svc.agent })) as unknown as typeof fetch;
  client = new Client({ name: 'dvs-progress-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { fetch: fetchWithCa }));
});

afterAll(async () => {
  await client?.close();
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

/** Checks the notifications count every probe of the report once, in order, up to the total. */
function expectProbeProgress(heard: Progress[], probes: Record<string, string>): void {
  const names = Object.keys(probes);
  expect(heard.map((p) => p.progress)).toEqual(names.map((_, i) => i + 1));
  expect(new Set(heard.map((p) => p.total))).toEqual(new Set([names.length]));
  const told = heard.map((p) => /^probe (\w+): (\w+)$/.exec(p.message ?? '')!.slice(1));
  expect(told.map(([name]) => name).sort()).toEqual(names.sort());
  for (const [name, status] of told) expect(status).toBe(probes[name!]);
}

it('notifies a Full Validation caller as each probe finishes, then answers with the certificate', async () => {
  const heard: Progress[] = [];
  const token = svc.gate.issue();
  const result = (await client.callTool(
    { name: 'service_fullvalidation', arguments: { domain: 'good.test', payment_token: token } },
    undefined,
    { onprogress: (p) => heard.push(p) },
  )) as CallToolResult;
  expect(result.isError).toBeUndefined();
  expect(heard.length).toBeGreaterThan(1);
  const full = (await svc.post('/api/quickscan', { domain: 'good.test' })).json() as {
    structuredContent: { probes: Record<string, string> };
  };
  // The quick scan's probes are a subset of the full scan's: the full run told at least as many.
  expect(heard.length).toBeGreaterThanOrEqual(Object.keys(full.structuredContent.probes).length);
  expect(heard.at(-1)!.progress).toBe(heard.at(-1)!.total);
  // Replaying the token validates nothing again: the stored certificate comes back without progress.
  const again: Progress[] = [];
  const replay = (await client.callTool(
    { name: 'service_fullvalidation', arguments: { domain: 'good.test', payment_token: token } },
    undefined,
    { onprogress: (p) => again.push(p) },
  )) as CallToolResult;
  expect(replay.structuredContent).toEqual(result.structuredContent);
  expect(again).toEqual([]);
});

it('notifies a Quick Scan caller once per probe of the report, and a call without a token gets the same result', async () => {
  const heard: Progress[] = [];
  const result = (await client.callTool(
    { name: 'service_quickscan', arguments: { domain: 'www.good.test' } },
    undefined,
    { onprogress: (p) => heard.push(p) },
  )) as CallToolResult;
  const report = result.structuredContent as { domain: string; probes: Record<string, string> };
  expect(report.domain).toBe('www.good.test');
  expectProbeProgress(heard, report.probes);
  const plain = (await client.callTool({
    name: 'service_quickscan',
    arguments: { domain: 'www.good.test' },
  })) as CallToolResult;
  expect(plain).toEqual(result);
});
