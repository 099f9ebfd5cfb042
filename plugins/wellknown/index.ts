// The wellknown probe: the files a site publishes at fixed paths for crawlers and agents (robots.txt,
// llms.txt, llms-full.txt, sitemap, security.txt, tdmrep.json) and the home page's Link header. Each facet is
// collected only when a rule of the run reads it; documents shared by facets are fetched once.
import schema from '../../schemas/observations/wellknown.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import type { WellknownObservations } from '../../src/lib/schema-types/observations/wellknown.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import { DocumentFetcher } from '../shared/fetch-document.ts';
import { collectRobots } from './collect-robots.ts';
import { collectUsage } from './collect-usage.ts';
import { collectLlmsFullTxt, collectLlmsTxt } from './collect-llms-txt.ts';
import { collectSitemap } from './collect-sitemap.ts';
import { collectSecurityTxt } from './collect-security-txt.ts';
import { collectDiscovery } from './collect-discovery.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

export const provider: ProbeProvider<WellknownObservations> = {
  name: 'wellknown',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const f = new DocumentFetcher(ctx, normaliseName(domain));
    const facets: FacetCollectors<WellknownObservations> = {
      robots: () => collectRobots(f),
      usage: () => collectUsage(f),
      llms_txt: () => collectLlmsTxt(f),
      llms_full_txt: () => collectLlmsFullTxt(f),
      sitemap: () => collectSitemap(f),
      security_txt: () => collectSecurityTxt(f, ctx),
      discovery: () => collectDiscovery(f),
    };
    return collectFacets(facets, (facet) => ctx.needs(`wellknown.${facet}`));
  },
};
