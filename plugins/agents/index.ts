// The agents probe: what a site publishes for AI agents and their clients. MCP and A2A discovery documents,
// API descriptions and catalogs, OAuth metadata, key sets, agent manifests and payment signals, each fetched
// from its well-known location, parsed, and described as facts. Facets run only when a rule of the run reads them.
import schema from '../../schemas/observations/agents.json' with { type: 'json' };
import type { ProbeContext, ProbeProvider } from '../../src/engine/types.ts';
import type { AgentsObservations } from '../../src/lib/schema-types/observations/agents.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import type { HttpExchange } from '../../src/net/types.ts';
import { DocumentFetcher, type DocumentFacts } from '../shared/fetch-document.ts';
import { jsonExcerpt, JsonLinesError, parseJsonLines, type JsonLines } from '../shared/json-lines.ts';
import { lineExcerpt, type ExcerptLine } from '../shared/line-excerpt.ts';
import { inspectAgentCard } from './inspect-agent-card.ts';
import { inspectEntryCatalog, inspectLinkset } from './inspect-catalogs.ts';
import { inspectJwks } from './inspect-jwks.ts';
import { inspectAiPlugin, inspectSkillsIndex, inspectUcpProfile } from './inspect-manifests.ts';
import { EMPTY_CARD, inspectMcpCard, pickEndpoint } from './inspect-mcp.ts';
import { inspectAuthorizationServer, inspectProtectedResource } from './inspect-oauth.ts';
import { isHttpsUrl } from './json-value.ts';
import { memberPointers, privateValues } from './member-pointers.ts';
import { identifierOf, metadataUrl } from './oauth-locations.ts';
import { inspectOpenApi } from './inspect-openapi.ts';
import { inspectPaymentChallenge } from './inspect-payment.ts';
import { talkToEndpoint } from './mcp-session.ts';
import { keysThatSigned } from '../../src/lib/signature-directory.ts';
import { KeySets, verifyCardSignatures } from './verify-card-signatures.ts';

const JSON_ACCEPT = 'application/json, */*;q=0.1';
const TEXT_ACCEPT = 'text/markdown, text/plain;q=0.9, */*;q=0.1';

/** Cap for discovery documents; OpenAPI descriptions get more room. */
const DOCUMENT_BYTES = 256 * 1024;
const OPENAPI_BYTES = 2 * 1024 * 1024;

/** OpenAPI has no registered location; these are the paths agents and scanners try, in this order. */
const OPENAPI_PATHS = ['/openapi.json', '/.well-known/openapi.json'];

/**
 * A JSON discovery document: its facts, the parsed value the inspectors read (undefined unless parsed), and for
 * the excerpt, the parse with its lines, or the lines and the line where it stopped being JSON.
 */
interface JsonDocument {
  facts: { published: boolean; document: DocumentFacts; json_parsed: boolean; json_error: string | null };
  json: unknown;
  exchange: HttpExchange | null;
  parse: JsonLines | JsonLinesError | null;
}

/**
 * Discovery documents are fetched the way verifiers are told to: no credentials, no redirects followed (a 3xx is
 * what the site answered), a size cap. Only a published body is parsed, once, keeping where each member sits.
 */
async function json(f: DocumentFetcher, path: string, accept = JSON_ACCEPT, maxBytes = DOCUMENT_BYTES) {
  const { published, document, exchange } = await f.open(path, { accept, maxBytes, redirects: 'record' });
  const out: JsonDocument = {
    facts: { published, document, json_parsed: false, json_error: null },
    json: undefined,
    exchange,
    parse: null,
  };
  if (published && exchange) {
    try {
      out.parse = parseJsonLines(exchange.body.toString('utf8').replace(/^\uFEFF/, ''));
      out.json = out.parse.value;
      out.facts.json_parsed = true;
    } catch (err) {
      if (!(err instanceof JsonLinesError)) throw err;
      out.parse = err;
      out.facts.json_error = err.message;
    }
  }
  return out;
}

/**
 * The lines of a published document its facts point at: where it stops being JSON, or the members they name, the
 * values of a key's private members redacted.
 */
function excerptOf(doc: JsonDocument, facts: object): ExcerptLine[] | null {
  if (!doc.facts.published) return null;
  const parse = doc.parse;
  if (parse instanceof JsonLinesError)
    return parse.line === null
      ? []
      : lineExcerpt(parse.lines, [
          ['json_error', parse.line],
          ['json_parsed', parse.line],
        ]);
  if (!parse) return [];
  const all = { ...doc.facts, ...facts };
  return jsonExcerpt(parse, memberPointers(all, parse.value), privateValues(all, parse.value));
}

/** A document's facts, what its inspector found in it, and the lines those point at. */
function described<T extends object>(doc: JsonDocument, facts: T) {
  return { ...doc.facts, ...facts, excerpt: excerptOf(doc, facts) };
}

async function text(f: DocumentFetcher, path: string) {
  const { published, document } = await f.open(path, { accept: TEXT_ACCEPT, redirects: 'record' });
  return { published, document };
}

async function mcp(f: DocumentFetcher) {
  const card = (doc: JsonDocument) =>
    described(doc, doc.facts.json_parsed ? inspectMcpCard(doc.json, doc.facts.document.url, f.domain) : EMPTY_CARD);
  // The endpoint is named by the cards alone: the session starts without waiting for the catalog.
  const cardsAndEndpoint = async () => {
    const [manifest, serverCard] = await Promise.all([
      json(f, '/.well-known/mcp.json'),
      json(f, '/.well-known/mcp/server-card.json'),
    ]);
    const cards = [card(serverCard), card(manifest)] as const;
    const remote = pickEndpoint(cards.flatMap((c) => c.remotes));
    return { cards, endpoint: remote ? await talkToEndpoint(f, remote) : null };
  };
  const [{ cards, endpoint }, catalog] = await Promise.all([
    cardsAndEndpoint(),
    json(f, '/.well-known/mcp/catalog.json'),
  ]);
  return {
    manifest: cards[1],
    server_card: cards[0],
    catalog: described(catalog, inspectEntryCatalog(catalog.json)),
    endpoint,
  };
}

async function a2a(f: DocumentFetcher) {
  const [card, legacy] = await Promise.all([
    json(f, '/.well-known/agent-card.json'),
    json(f, '/.well-known/agent.json'),
  ]);
  // One budget of key sets for both cards; a key set also read by another facet is fetched once (the fetcher's memo).
  const keySets = new KeySets(async (url) => {
    const doc = await json(f, url, JWKS_ACCEPT);
    return doc.facts.published ? doc.json : null;
  });
  // One card after the other: which key sets fit the budget must not depend on which answer came first.
  const cardSignatures = await verifyCardSignatures(card.json, f.domain, keySets);
  const legacySignatures = await verifyCardSignatures(legacy.json, f.domain, keySets);
  return {
    card: described(card, { ...inspectAgentCard(card.json), signatures: cardSignatures }),
    legacy_card: described(legacy, { ...inspectAgentCard(legacy.json), signatures: legacySignatures }),
  };
}

async function openapi(f: DocumentFetcher) {
  let found: JsonDocument | null = null;
  for (const path of OPENAPI_PATHS) {
    const doc = await json(f, path, JSON_ACCEPT, OPENAPI_BYTES);
    found ??= doc;
    if (doc.facts.published) {
      found = doc;
      break;
    }
  }
  const doc = found!;
  return described(doc, inspectOpenApi(doc.json));
}

async function apiCatalog(f: DocumentFetcher) {
  const doc = await json(f, '/.well-known/api-catalog', 'application/linkset+json, application/json;q=0.9');
  const contentType = doc.exchange?.headers['content-type'] ?? '';
  return described(doc, {
    profile: /;\s*profile\s*=\s*"?([^";]+)"?/i.exec(contentType)?.[1] ?? null,
    ...inspectLinkset(doc.json, doc.facts.document.url),
  });
}

/** Authorization servers followed from protected resource metadata, and key sets followed from jwks_uri. */
const MAX_NAMED_SERVERS = 3;
const MAX_KEY_SETS = 4;
const JWKS_ACCEPT = 'application/jwk-set+json, application/json;q=0.9';

/** Metadata of an authorization server the protected resource names, at both locations its issuer implies. */
async function namedServer(f: DocumentFetcher, issuer: string) {
  const at = async (kind: 'oauth-authorization-server' | 'openid-configuration') => {
    const location = metadataUrl(issuer, kind)!;
    const doc = await json(f, location);
    return described(doc, inspectAuthorizationServer(doc.json, identifierOf(location, kind)));
  };
  const [oauthServer, openidConfiguration] = await Promise.all([
    at('oauth-authorization-server'),
    at('openid-configuration'),
  ]);
  return { named_as: issuer, oauth_authorization_server: oauthServer, openid_configuration: openidConfiguration };
}

/** Each key set a metadata document names in jwks_uri, fetched once, with the documents that name it. */
async function keySets(f: DocumentFetcher, named: { name: string; jwks_uri: string | null }[], observedAt: string) {
  const byUrl = new Map<string, string[]>();
  for (const { name, jwks_uri } of named) {
    if (jwks_uri === null || !isHttpsUrl(jwks_uri)) continue;
    byUrl.set(jwks_uri, [...(byUrl.get(jwks_uri) ?? []), name]);
  }
  const entries = [...byUrl].slice(0, MAX_KEY_SETS);
  return Promise.all(
    entries.map(async ([url, namedBy]) => {
      const doc = await json(f, url, JWKS_ACCEPT);
      return {
        url,
        named_by: [...new Set(namedBy)].sort(),
        ...described(doc, await inspectJwks(doc.json, observedAt)),
      };
    }),
  );
}

/** An identifier with metadata locations that is not the scanned origin (whose root locations are read anyway). */
function followable(issuer: string, origin: string): boolean {
  const at = metadataUrl(issuer, 'oauth-authorization-server');
  return at !== null && identifierOf(at, 'oauth-authorization-server') !== origin;
}

async function oauth(f: DocumentFetcher, observedAt: string) {
  // Identifiers name the site by its public origin, whatever port the probe reaches it on.
  const origin = `https://${f.domain}`;
  // The servers the protected resource names are followed as soon as it arrives, beside the root documents.
  const resourceAndNamed = async () => {
    const resource = await json(f, '/.well-known/oauth-protected-resource');
    const protectedResource = described(resource, inspectProtectedResource(resource.json, origin));
    const issuers = protectedResource.authorization_servers
      .filter((i) => followable(i, origin))
      .slice(0, MAX_NAMED_SERVERS);
    return { protectedResource, namedServers: await Promise.all(issuers.map((issuer) => namedServer(f, issuer))) };
  };
  const [{ protectedResource, namedServers }, server, openid] = await Promise.all([
    resourceAndNamed(),
    json(f, '/.well-known/oauth-authorization-server'),
    json(f, '/.well-known/openid-configuration'),
  ]);
  const authorizationServer = described(server, inspectAuthorizationServer(server.json, origin));
  const openidConfiguration = described(openid, inspectAuthorizationServer(openid.json, origin));
  const named = [
    { name: 'protected_resource', jwks_uri: protectedResource.jwks_uri },
    { name: 'authorization_server', jwks_uri: authorizationServer.jwks_uri },
    { name: 'openid_configuration', jwks_uri: openidConfiguration.jwks_uri },
    ...namedServers.flatMap((s) => [
      { name: `named_servers:${s.named_as}`, jwks_uri: s.oauth_authorization_server.jwks_uri },
      { name: `named_servers:${s.named_as}`, jwks_uri: s.openid_configuration.jwks_uri },
    ]),
  ];
  return {
    protected_resource: protectedResource,
    authorization_server: authorizationServer,
    openid_configuration: openidConfiguration,
    named_servers: namedServers,
    key_sets: await keySets(f, named, observedAt),
  };
}

/**
 * The listed keys whose directory signature the answer carries and that verifies now, by the service's own
 * verifier of callers' directories; null when the answer is unsigned or its body is not a key set it can read.
 */
async function directorySigners(directory: JsonDocument): Promise<string[] | null> {
  const exchange = directory.exchange;
  if (!exchange || !directory.facts.json_parsed) return null;
  if (exchange.headers.signature === undefined || exchange.headers['signature-input'] === undefined) return null;
  // The signature covers the authority the request was sent to: the URL as requested, not a redirect target.
  const url = exchange.chain[0]?.url ?? exchange.url;
  const signers = await keysThatSigned({ ...exchange, url }, directory.json);
  return typeof signers === 'string' ? null : signers;
}

async function identity(f: DocumentFetcher, observedAt: string) {
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
    jwks: described(jwks, await inspectJwks(jwks.json, observedAt)),
    wba_directory: described(directory, {
      signature: headers.signature ?? null,
      signature_input: headers['signature-input'] ?? null,
      signature_verified_keyids: await directorySigners(directory),
      cache_control: headers['cache-control'] ?? null,
      ...(await inspectJwks(directory.json, observedAt)),
    }),
  };
}

async function manifests(f: DocumentFetcher) {
  const [aiPlugin, agentsJson, skills, aiCatalog, agentsMd, authMd] = await Promise.all([
    json(f, '/.well-known/ai-plugin.json'),
    json(f, '/.well-known/agents.json'),
    json(f, '/.well-known/agent-skills/index.json'),
    json(f, '/.well-known/ai-catalog.json'),
    text(f, '/AGENTS.md'),
    text(f, '/auth.md'),
  ]);
  return {
    ai_plugin: described(aiPlugin, inspectAiPlugin(aiPlugin.json)),
    agents_json: described(agentsJson, {}),
    skills_index: described(skills, inspectSkillsIndex(skills.json)),
    ai_catalog: described(aiCatalog, inspectEntryCatalog(aiCatalog.json)),
    agents_md: agentsMd,
    auth_md: authMd,
  };
}

async function commerce(f: DocumentFetcher) {
  const [ucp, acp] = await Promise.all([json(f, '/.well-known/ucp'), json(f, '/.well-known/acp.json')]);
  return {
    ucp: described(ucp, inspectUcpProfile(ucp.json)),
    acp: described(acp, {}),
  };
}

type Commerce = NonNullable<AgentsObservations['commerce']>;
/** The facets as their collectors give them: commerce's payment challenges are added once every facet has run. */
type Collected = Omit<AgentsObservations, 'commerce'> & { commerce?: Omit<Commerce, 'payment_challenges'> };

async function collect(domain: string, ctx: ProbeContext): Promise<AgentsObservations> {
  const f = new DocumentFetcher(ctx, domain);
  const facets: FacetCollectors<Collected> = {
    mcp: () => mcp(f),
    a2a: () => a2a(f),
    openapi: () => openapi(f),
    api_catalog: () => apiCatalog(f),
    oauth: () => oauth(f, ctx.observedAt),
    identity: () => identity(f, ctx.observedAt),
    manifests: () => manifests(f),
    commerce: () => commerce(f),
  };
  const { commerce: found, ...out } = await collectFacets(facets, (name) => ctx.needs(`agents.${name}`));
  if (!found) return out;
  // Only after every facet has run: the 402 answers are those of the whole probe run.
  const challenges = f
    .answered(402)
    .map((e) => inspectPaymentChallenge(e.chain[0]?.url ?? e.url, e.headers, e.body.toString('utf8')))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { ...out, commerce: { ...found, payment_challenges: challenges } };
}

export const provider: ProbeProvider<AgentsObservations> = { name: 'agents', version: '1.0.0', schema, collect };
