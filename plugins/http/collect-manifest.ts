// The web application manifest the home page links: fetched through the shared document fetcher when it is on
// the scanned site (a manifest elsewhere is another site's file), then processed as a browser processes it.
import { onSite } from '../../src/net/site-url.ts';
import type { ProbeContext } from '../../src/engine/types.ts';
import { DocumentFetcher } from '../shared/fetch-document.ts';
import { processManifest } from './parse-manifest.ts';
import type { ManifestFacet } from './types.ts';

/** A manifest is a small JSON file; a larger answer is read up to this cap and then fails to parse. */
export const MANIFEST_BYTES = 256 * 1024;

const NOTHING_PROCESSED = {
  json: null,
  name: null,
  short_name: null,
  start_url: null,
  id: null,
  scope: null,
  display: null,
  icons: [],
  icons_declared: null,
  ignored: [],
  excerpt: null,
} as const satisfies Partial<ManifestFacet>;

function isHttpOnSite(url: URL, domain: string): boolean {
  return (url.protocol === 'https:' || url.protocol === 'http:') && onSite(url.hostname, domain);
}

/** `link`: the manifest URL the page links (null when none); `pageUrl`: the page's URL, the document URL. */
export async function collectManifest(
  ctx: ProbeContext,
  domain: string,
  link: string | null,
  pageUrl: string | null,
): Promise<ManifestFacet> {
  if (link === null || pageUrl === null)
    return { link, on_site: null, published: null, document: null, ...NOTHING_PROCESSED };
  const url = new URL(link);
  if (!isHttpOnSite(url, domain))
    return { link, on_site: false, published: null, document: null, ...NOTHING_PROCESSED };
  const fetcher = new DocumentFetcher(ctx, domain);
  const { published, document, exchange } = await fetcher.open(link, { maxBytes: MANIFEST_BYTES });
  const head = { link, on_site: true, published, document };
  if (!published || exchange === null) return { ...head, ...NOTHING_PROCESSED };
  // The manifest URL is the response's, after redirects.
  return { ...head, ...processManifest(exchange.body, exchange.url, pageUrl) };
}
