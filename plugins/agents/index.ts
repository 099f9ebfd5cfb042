// The agents probe: what a site publishes for AI agents and their clients. MCP and A2A discovery documents,
// API descriptions and catalogs, OAuth metadata, key sets, agent manifests and payment signals, each fetched
// from its well-known location, parsed, and described as facts. Facets run only when a rule of the run reads them.
import schema from '../../schemas/observations/agents.json' with { type: 'json' };
import type { ProbeContext, ProbeProvider } from '../../src/engine/types.ts';
import { DOCUMENT_BYTES, Fetcher, OPENAPI_BYTES, type Fetched } from './fetcher.ts';
import { inspectAgentCard } from './inspect-agent-card.ts';
import { inspectEntryCatalog, inspectLinkset } from './inspect-catalogs.ts';
import { inspectJwks } from './inspect-jwks.ts';
import { inspectAiPlugin, inspectSkillsIndex, inspectUcpProfile } from './inspect-manifests.ts';
import { EMPTY_CARD, inspectMcpCard, pickEndpoint } from './inspect-mcp.ts';
import { inspectAuthorizationServer, inspectProtectedResource } from './inspect-oauth.ts';
import { inspectOpenApi } from './inspect-openapi.ts';
import { inspectPaymentChallenge } from './inspect-payment.ts';
import { talkToEndpoint } from './mcp-session.ts';

const JSON_ACCEPT = 'application/json, */*;q=0.1';
const TEXT_ACCEPT = 'text/markdown, text/plain;q=0.9, */*;q=0.1';

/** OpenAPI has no registered location; these are the paths agents and scanners try, in this order. */
const OPENAPI_PATHS = ['/openapi.json', '/.well-known/openapi.json'];

/** Whether an answer is a published document rather than a miss or a catch-all HTML page. */
function published(doc: Fetched): boolean {
  return doc.response.status === 200 && !doc.response.looks_html;
}

function json(f: Fetcher, path: string, accept = JSON_ACCEPT): Promise<Fetched> {
  return f.get(path, { accept, json: true });
}

async function mcp(f: Fetcher) {
  const [manifest, serverCard, catalog] = await Promise.all([
    json(f, '/.well-known/mcp.json'),
    json(f, '/.well-known/mcp/server-card.json'),
    json(f, '/.well-known/mcp/catalog.json'),
  ]);
  const card = (doc: Fetched) => ({
    response: doc.response,
    ...(doc.response.json_parsed ? inspectMcpCard(doc.json, doc.response.url, f.domain) : EMPTY_CARD),
  });
  const cards = [card(serverCard), card(manifest)];
  const remote = pickEndpoint(cards.flatMap((c) => c.remotes));
  return {
    manifest: cards[1],
    server_card: cards[0],
    catalog: { response: catalog.response, ...inspectEntryCatalog(catalog.json) },
    endpoint: remote ? await talkToEndpoint(f, remote) : null,
  };
}

async function a2a(f: Fetcher) {
  const [card, legacy] = await Promise.all([
    json(f, '/.well-known/agent-card.json'),
    json(f, '/.well-known/agent.json'),
  ]);
  return {
    card: { response: card.response, ...inspectAgentCard(card.json) },
    legacy_card: { response: legacy.response, ...inspectAgentCard(legacy.json) },
  };
}

async function openapi(f: Fetcher) {
  let found: Fetched | null = null;
  for (const path of OPENAPI_PATHS) {
    const doc = await f.get(path, { accept: JSON_ACCEPT, json: true, maxBodyBytes: OPENAPI_BYTES });
    found ??= doc;
    if (published(doc)) {
      found = doc;
      break;
    }
  }
  const doc = found!;
  return { response: doc.response, ...inspectOpenApi(doc.json) };
}

async function apiCatalog(f: Fetcher) {
  const doc = await json(f, '/.well-known/api-catalog', 'application/linkset+json, application/json;q=0.9');
  const contentType = doc.exchange?.headers['content-type'] ?? '';
  return {
    response: doc.response,
    profile: /;\s*profile\s*=\s*"?([^";]+)"?/i.exec(contentType)?.[1] ?? null,
    ...inspectLinkset(doc.json),
  };
}

async function oauth(f: Fetcher) {
  const [resource, server, openid] = await Promise.all([
    json(f, '/.well-known/oauth-protected-resource'),
    json(f, '/.well-known/oauth-authorization-server'),
    json(f, '/.well-known/openid-configuration'),
  ]);
  return {
    protected_resource: { response: resource.response, ...inspectProtectedResource(resource.json, f.origin) },
    authorization_server: { response: server.response, ...inspectAuthorizationServer(server.json, f.origin) },
    openid_configuration: { response: openid.response, ...inspectAuthorizationServer(openid.json, f.origin) },
  };
}

async function identity(f: Fetcher, observedAt: string) {
  const [jwks, directory] = await Promise.all([
    json(f, '/.well-known/jwks.json', 'application/jwk-set+json, application/json;q=0.9'),
    json(
      f,
      '/.well-known/http-message-signatures-directory',
      'application/http-message-signatures-directory+json, application/json;q=0.9',
    ),
  ]);
  const headers = directory.exchange?.headers ?? {};
  return {
    jwks: { response: jwks.response, ...(await inspectJwks(jwks.json, observedAt)) },
    wba_directory: {
      response: directory.response,
      signature_headers_present: headers.signature !== undefined && headers['signature-input'] !== undefined,
      cache_control: headers['cache-control'] ?? null,
      ...(await inspectJwks(directory.json, observedAt)),
    },
  };
}

async function manifests(f: Fetcher) {
  const [aiPlugin, agentsJson, skills, aiCatalog, agentsMd, authMd] = await Promise.all([
    json(f, '/.well-known/ai-plugin.json'),
    json(f, '/.well-known/agents.json'),
    json(f, '/.well-known/agent-skills/index.json'),
    json(f, '/.well-known/ai-catalog.json'),
    f.get('/AGENTS.md', { accept: TEXT_ACCEPT, json: false }),
    f.get('/auth.md', { accept: TEXT_ACCEPT, json: false }),
  ]);
  return {
    ai_plugin: { response: aiPlugin.response, ...inspectAiPlugin(aiPlugin.json) },
    agents_json: { response: agentsJson.response },
    skills_index: { response: skills.response, ...inspectSkillsIndex(skills.json) },
    ai_catalog: { response: aiCatalog.response, ...inspectEntryCatalog(aiCatalog.json) },
    agents_md: { response: agentsMd.response },
    auth_md: { response: authMd.response },
  };
}

async function commerce(f: Fetcher) {
  const [ucp, acp] = await Promise.all([json(f, '/.well-known/ucp'), json(f, '/.well-known/acp.json')]);
  return {
    ucp: { response: ucp.response, ...inspectUcpProfile(ucp.json) },
    acp: { response: acp.response },
  };
}

async function collect(domain: string, ctx: ProbeContext): Promise<Record<string, unknown>> {
  const f = new Fetcher(ctx, domain);
  const facets: Record<string, () => Promise<unknown>> = {
    mcp: () => mcp(f),
    a2a: () => a2a(f),
    openapi: () => openapi(f),
    api_catalog: () => apiCatalog(f),
    oauth: () => oauth(f),
    identity: () => identity(f, ctx.observedAt),
    manifests: () => manifests(f),
    commerce: () => commerce(f),
  };
  const wanted = Object.keys(facets).filter((name) => ctx.needs(`agents.${name}`));
  const values = await Promise.all(wanted.map((name) => facets[name]!()));
  const out: Record<string, unknown> = Object.fromEntries(wanted.map((name, i) => [name, values[i]]));
  if (out.commerce) {
    // Only after every facet has run: the 402 answers are those of the whole probe run.
    const challenges = f
      .answered(402)
      .map((e) => inspectPaymentChallenge(e.chain[0]?.url ?? e.url, e.headers, e.body.toString('utf8')))
      .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    out.commerce = { ...(out.commerce as object), payment_challenges: challenges };
  }
  return out;
}

export const provider: ProbeProvider = { name: 'agents', version: '1.0.0', schema, collect };
