// The http probe: how the domain answers over HTTP and HTTPS. One chain of requests fetches the home page and
// feeds every facet that reads it; the other requests run only for the facets this scan's rules need.
import schema from '../../schemas/observations/http.json' with { type: 'json' };
import type { ProbeContext, ProbeProvider } from '../../src/engine/types.ts';
import { siteUrl } from '../../src/net/site-url.ts';
import { computed } from '../shared/computed.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import { followChain } from './fetch-chain.ts';
import { collectCookies, collectResponse, collectSecurityHeaders, parseHomePage } from './collect-home-page.ts';
import { collectCanonical } from './collect-canonical.ts';
import { collectCors } from './collect-cors.ts';
import { collectManifest } from './collect-manifest.ts';
import { collectMarkdown } from './collect-markdown.ts';
import { collectMethods } from './collect-methods.ts';
import { collectNotFound } from './collect-not-found.ts';
import { collectTiming } from './collect-timing.ts';
import type { HttpObservations } from './types.ts';

/** One run of the probe: what the home page and its parse are derived from. */
interface HttpRun {
  ctx: ProbeContext;
  /** The home page's URL, https on the domain. */
  home: string;
}

/** The Accept header of a browser navigation, so the site serves what a person would get. */
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** The home page fetch: the response, security_headers, cookies, not_found and timing facets read it. */
const homePage = computed((run: HttpRun) =>
  followChain(run.ctx.net, run.home, run.ctx.signal, { headers: { accept: HTML_ACCEPT }, decompress: true }),
);

/** The home page parsed: the html facet, and the links markdown, canonical and manifest follow. */
const parsedPage = computed(async (run: HttpRun) => parseHomePage(await homePage(run)));

export async function collectHttp(domain: string, ctx: ProbeContext): Promise<HttpObservations> {
  const { net, signal } = ctx;
  const wants = (facet: keyof HttpObservations): boolean => ctx.needs(`http.${facet}`);
  const run: HttpRun = { ctx, home: siteUrl('https', domain, net.ports) };
  const lastExchange = async () => (await homePage(run)).exchanges.at(-1) ?? null;
  // Every facet starts at once (the home page's readers first, as its fetch is the longest chain): those that read
  // the home page wait for it, the others run beside it.
  const collectors: Omit<FacetCollectors<HttpObservations>, 'timing'> = {
    redirect: async () => (await followChain(net, siteUrl('http', domain, net.ports), signal)).chain,
    www: async () => (await followChain(net, siteUrl('http', `www.${domain}`, net.ports), signal)).chain,
    response: async () => collectResponse(await homePage(run), ctx.observedAt),
    security_headers: async () => collectSecurityHeaders(await homePage(run)),
    cookies: async () => collectCookies(await homePage(run), ctx.observedAt),
    html: async () => (await parsedPage(run)).html,
    markdown: async () => collectMarkdown(net, domain, (await parsedPage(run)).html.markdown_alternate, signal),
    not_found: async () => collectNotFound(net, domain, await lastExchange(), signal),
    canonical: async () => collectCanonical(net, domain, (await parsedPage(run)).html.canonical_url, signal),
    manifest: async () => {
      const [page, parsed] = await Promise.all([homePage(run), parsedPage(run)]);
      return collectManifest(ctx, domain, parsed.manifestLink, page.chain.hops.at(-1)?.url ?? null);
    },
    cors: () => collectCors(net, domain, run.home, signal),
    methods: () => collectMethods(net, run.home, signal),
  };
  const out: HttpObservations = await collectFacets(collectors, wants);
  // Timing runs last and alone, so the samples are not taken while this probe's other requests are in flight.
  if (wants('timing')) out.timing = await collectTiming(net, await lastExchange(), signal);
  return out;
}

export const provider: ProbeProvider<HttpObservations> = {
  name: 'http',
  version: '1.0.0',
  schema,
  collect: collectHttp,
};
