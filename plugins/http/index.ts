// The http probe: how the domain answers over HTTP and HTTPS. One chain of requests fetches the home page and
// feeds every facet that reads it; the other requests run only for the facets this scan's rules need.
import schema from '../../schemas/observations/http.json' with { type: 'json' };
import type { ProbeContext, ProbeProvider } from '../../src/engine/types.ts';
import { siteUrl } from '../../src/net/site-url.ts';
import { followChain } from './fetch-chain.ts';
import { buildCookies, buildPage, buildResponse, buildSecurityHeaders } from './facets-main.ts';
import { probeCors } from './probe-cors.ts';
import { probeCanonical, probeMethods, probeTiming } from './probe-extras.ts';
import { probeManifest } from './probe-manifest.ts';
import { probeMarkdown } from './probe-markdown.ts';
import { probeNotFound } from './probe-not-found.ts';
import type { HttpObservations } from './types.ts';

type Facet = keyof HttpObservations;

/** Facets that read the home page fetch (markdown needs the page's alternate link, canonical its link). */
const READ_HOME_PAGE: readonly Facet[] = [
  'response',
  'security_headers',
  'cookies',
  'html',
  'markdown',
  'not_found',
  'timing',
  'canonical',
  'manifest',
];

/** The Accept header of a browser navigation, so the site serves what a person would get. */
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** The home page fetch and the requests that read it, which start as soon as it arrives. */
async function readHomePage(ctx: ProbeContext, domain: string, home: string, wants: (facet: Facet) => boolean) {
  const { net, signal } = ctx;
  const skip = Promise.resolve(undefined);
  const page = await followChain(net, home, signal, { headers: { accept: HTML_ACCEPT }, decompress: true });
  const parsed = wants('html') || wants('markdown') || wants('canonical') || wants('manifest') ? buildPage(page) : null;
  const html = parsed?.html ?? null;
  const last = page.exchanges.at(-1) ?? null;
  const pageUrl = page.chain.hops.at(-1)?.url ?? null;
  const [markdown, notFound, canonical, manifest] = await Promise.all([
    wants('markdown') ? probeMarkdown(net, domain, html?.markdown_alternate ?? null, signal) : skip,
    wants('not_found') ? probeNotFound(net, domain, last, signal) : skip,
    wants('canonical') ? probeCanonical(net, domain, html?.canonical_url ?? null, signal) : skip,
    wants('manifest') ? probeManifest(ctx, domain, parsed?.manifestLink ?? null, pageUrl) : skip,
  ]);
  return { page, html, last, markdown, notFound, canonical, manifest };
}

export async function collectHttp(domain: string, ctx: ProbeContext): Promise<HttpObservations> {
  const { net, signal } = ctx;
  const wants = (facet: Facet): boolean => ctx.needs(`http.${facet}`);
  const home = siteUrl('https', domain, net.ports);
  const skip = Promise.resolve(undefined);

  // The home page's readers run beside the requests that do not need it, not after them.
  const [redirect, www, homePage, cors, methods] = await Promise.all([
    wants('redirect') ? followChain(net, siteUrl('http', domain, net.ports), signal) : skip,
    wants('www') ? followChain(net, siteUrl('http', `www.${domain}`, net.ports), signal) : skip,
    READ_HOME_PAGE.some(wants) ? readHomePage(ctx, domain, home, wants) : skip,
    wants('cors') ? probeCors(net, domain, home, signal) : skip,
    wants('methods') ? probeMethods(net, home, signal) : skip,
  ]);

  const out: HttpObservations = {};
  if (redirect) out.redirect = redirect.chain;
  if (www) out.www = www.chain;
  if (cors) out.cors = cors;
  if (methods) out.methods = methods;
  if (!homePage) return out;

  const { page, html, last, markdown, notFound, canonical, manifest } = homePage;
  if (wants('response')) out.response = buildResponse(page, ctx.observedAt);
  if (wants('security_headers')) out.security_headers = buildSecurityHeaders(page);
  if (wants('cookies')) out.cookies = buildCookies(page, ctx.observedAt);
  if (html && wants('html')) out.html = html;
  if (markdown) out.markdown = markdown;
  if (notFound) out.not_found = notFound;
  if (canonical) out.canonical = canonical;
  if (manifest) out.manifest = manifest;
  // Timing runs last and alone, so the samples are not taken while this probe's other requests are in flight.
  if (wants('timing')) out.timing = await probeTiming(net, last, signal);
  return out;
}

export const provider: ProbeProvider<HttpObservations> = {
  name: 'http',
  version: '1.0.0',
  schema,
  collect: collectHttp,
};
