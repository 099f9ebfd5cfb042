// The wellknown probe: the files a site publishes at fixed paths for crawlers and agents (robots.txt,
// llms.txt, llms-full.txt, sitemap, security.txt, tdmrep.json) and the home page's Link header. Each facet is
// collected only when a rule of the run reads it; documents shared by facets are fetched once.
import schema from '../../schemas/observations/wellknown.json' with { type: 'json' };
import type { ProbeContext, ProbeProvider } from '../../src/engine/types.ts';
import { DocumentFetcher } from '../shared/fetch-document.ts';
import { collectRobots } from './facet-robots.ts';
import { collectUsage } from './facet-usage.ts';
import { collectLlmsFullTxt, collectLlmsTxt } from './facet-llms.ts';
import { collectSitemap } from './facet-sitemap.ts';
import { collectSecurityTxt } from './facet-security-txt.ts';
import { collectDiscovery } from './facet-discovery.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

const FACETS: Record<string, (f: DocumentFetcher, ctx: ProbeContext) => Promise<unknown>> = {
  robots: collectRobots,
  usage: collectUsage,
  llms_txt: collectLlmsTxt,
  llms_full_txt: collectLlmsFullTxt,
  sitemap: collectSitemap,
  security_txt: collectSecurityTxt,
  discovery: collectDiscovery,
};

export const provider: ProbeProvider = {
  name: 'wellknown',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const f = new DocumentFetcher(ctx, normaliseName(domain));
    const wanted = Object.entries(FACETS).filter(([facet]) => ctx.needs(`wellknown.${facet}`));
    const values = await Promise.all(wanted.map(async ([facet, collect]) => [facet, await collect(f, ctx)] as const));
    return Object.fromEntries(values);
  },
};
