// Markdown for agents: content negotiation on `/` (Accept: text/markdown), the `/index.md` mirror and the
// markdown alternate the page advertises (fetched only when it is on the scanned site).
import { parseContentType } from '../../src/net/content-type.ts';
import { onSite, probeUrl, siteUrl } from '../../src/net/site-url.ts';
import type { Net } from '../../src/net/types.ts';
import { decodeBody } from './body.ts';
import { isHtmlPage } from '../shared/sniff-html.ts';
import { fetchOnce } from './fetch-chain.ts';
import { header, varyList } from './parse-headers.ts';
import type { FetchedDocument, MarkdownFacet } from './types.ts';

const MARKDOWN_BODY_BYTES = 262_144;
const MARKDOWN_ACCEPT = 'text/markdown, text/plain;q=0.9';

function notFetched(url: string | null, error: string | null): FetchedDocument {
  return {
    url,
    status: null,
    error,
    content_type: null,
    vary: [],
    looks_like_html: null,
    body_bytes: null,
    markdown_tokens: null,
  };
}

async function fetchDocument(net: Net, url: string, signal: AbortSignal, accept: string): Promise<FetchedDocument> {
  const { ex, error } = await fetchOnce(net, url, signal, {
    headers: { accept },
    followRedirects: true,
    decompress: true,
    maxBodyBytes: MARKDOWN_BODY_BYTES,
  });
  if (ex === null) return notFetched(url, error);
  const { mediaType, charset } = parseContentType(header(ex.headers, 'content-type'));
  return {
    url,
    status: ex.status,
    error: null,
    content_type: mediaType,
    vary: varyList(header(ex.headers, 'vary')),
    looks_like_html: isHtmlPage(decodeBody(ex.body, charset)),
    body_bytes: ex.body.length,
    markdown_tokens: header(ex.headers, 'x-markdown-tokens'),
  };
}

export async function collectMarkdown(
  net: Net,
  domain: string,
  alternate: string | null,
  signal: AbortSignal,
): Promise<MarkdownFacet> {
  const alternateUrl = alternate === null ? null : new URL(alternate);
  const [negotiated, indexMd, alternateDoc] = await Promise.all([
    fetchDocument(net, siteUrl('https', domain, net.ports), signal, 'text/markdown'),
    fetchDocument(net, siteUrl('https', domain, net.ports, '/index.md'), signal, MARKDOWN_ACCEPT),
    alternateUrl === null
      ? notFetched(null, null)
      : onSite(alternateUrl.hostname, domain)
        ? fetchDocument(net, probeUrl(alternateUrl, net.ports), signal, MARKDOWN_ACCEPT)
        : notFetched(alternateUrl.href, 'off_site'),
  ]);
  return { negotiated, index_md: indexMd, alternate: alternateDoc };
}
