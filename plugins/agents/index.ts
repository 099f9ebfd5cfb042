// The agents probe: what a site publishes for AI agents and their clients. MCP and A2A discovery documents,
// API descriptions and catalogs, OAuth metadata, key sets, agent manifests and payment signals, each fetched
// from its well-known location, parsed, and described as facts. Facets run only when a rule of the run reads them.
import schema from '../../schemas/observations/agents.json' with { type: 'json' };
import type { ProbeContext, ProbeProvider } from '../../src/engine/types.ts';
import type { AgentsObservations } from '../../src/lib/schema-types/observations/agents.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import { DocumentFetcher } from '../shared/fetch-document.ts';
import { collectA2a } from './collect-a2a.ts';
import { collectApiCatalog } from './collect-api-catalog.ts';
import { collectCommerce } from './collect-commerce.ts';
import { collectIdentity } from './collect-identity.ts';
import { collectManifests } from './collect-manifests.ts';
import { collectMcp } from './collect-mcp.ts';
import { collectOauth } from './collect-oauth.ts';
import { collectOpenapi } from './collect-openapi.ts';
import { inspectPaymentChallenge } from './inspect-payment.ts';

type Commerce = NonNullable<AgentsObservations['commerce']>;
/** The facets as their collectors give them: commerce's payment challenges are added once every facet has run. */
type Collected = Omit<AgentsObservations, 'commerce'> & { commerce?: Omit<Commerce, 'payment_challenges'> };

async function collect(domain: string, ctx: ProbeContext): Promise<AgentsObservations> {
  const f = new DocumentFetcher(ctx, domain);
  const facets: FacetCollectors<Collected> = {
    mcp: () => collectMcp(f),
    a2a: () => collectA2a(f),
    openapi: () => collectOpenapi(f),
    api_catalog: () => collectApiCatalog(f),
    oauth: () => collectOauth(f, ctx.observedAt),
    identity: () => collectIdentity(f, ctx.observedAt),
    manifests: () => collectManifests(f),
    commerce: () => collectCommerce(f),
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
