// The service certifies itself: it is served inside the fixture internet as dvs.test (on the world's HTTPS
// port, with a certificate from the world's CA) and runs a Full Validation of its own published surface.
// Every agent-facing rule that applies to it must pass.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiWorld, startServiceAsSite, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;

/** The rule categories that describe what an agent finds and uses on a site. */
const AGENT_FACING = new Set(['mcp', 'a2a', 'agents', 'api', 'identity', 'oauth', 'wellknown', 'llms', 'robots']);

/**
 * Rules that apply to every site but ask for a surface this service rightly does not have, or that the fixture
 * internet cannot satisfy; each with the reason. Nothing required or recommended may be here.
 */
const NOT_FOR_THIS_SERVICE: Record<string, string> = {
  'a2a.card.published':
    'informational: the service speaks REST and MCP, not A2A, so an agent card would promise an endpoint that does not exist',
  'agents.agents_md.published':
    'informational: AGENTS.md guides coding agents in a source tree; the service publishes no source tree',
  'agents.auth_md.published':
    'informational: there is no agent registration to describe (MCP and Quick Scans need no authentication)',
  'agents.skills_index.published': 'informational: the service offers MCP tools, not agent skill bundles',
};

beforeAll(async () => {
  world = await startApiWorld([]);
  svc = await startServiceAsSite(world, 'dvs', { DVS_FULL_DEADLINE_MS: '60000' });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

it('passes every agent-facing rule that applies to its own published surface', async () => {
  const res = await svc.post('/api/fullvalidation', { domain: 'dvs.test', payment_token: svc.gate.issue() });
  expect(res.status, res.text).toBe(200);
  const certificate = JSON.parse((res.json() as { content: { text: string }[] }).content[1]!.text) as {
    payload: { domain: string; results: { id: string; outcome: string; level: string }[] };
  };
  expect(certificate.payload.domain).toBe('dvs.test');
  const agentFacing = certificate.payload.results.filter((r) => AGENT_FACING.has(r.id.split('.')[0]!));
  const applicable = agentFacing.filter((r) => r.outcome !== 'not_applicable');
  // The surface it publishes (openapi.json, mcp.json and the endpoint, jwks.json, the key directory) is judged.
  for (const id of [
    'api.openapi.parses',
    'mcp.manifest.parses',
    'mcp.endpoint.tools_listed',
    'identity.jwks.parses',
    'identity.wba_directory.signed',
  ]) {
    expect(applicable.map((r) => r.id)).toContain(id);
  }
  const failing = applicable.filter((r) => r.outcome !== 'pass' && !(r.id in NOT_FOR_THIS_SERVICE));
  expect(failing).toEqual([]);
  const excusedAboveInformational = applicable
    .filter((r) => r.id in NOT_FOR_THIS_SERVICE && r.level !== 'informational')
    .map((r) => r.id);
  expect(excusedAboveInformational).toEqual([]);
}, 90_000);
