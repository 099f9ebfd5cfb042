// The facets read from the home page fetch (one chain of requests): response, security headers, cookies and
// the parsed HTML. Pure functions of what was received.
import { parseContentType } from '../../src/net/content-type.ts';
import type { HttpExchange } from '../../src/net/types.ts';
import { decodeBody, sha256 } from './body.ts';
import { isHtmlPage } from '../shared/sniff-html.ts';
import type { ChainResult } from './fetch-chain.ts';
import { parseCookiesOf } from './parse-cookies.ts';
import { parseCspList } from './parse-csp.ts';
import {
  contentTypeOptions,
  frameOptions,
  header,
  httpDate,
  parseAltSvc,
  parseCacheControl,
  permissionsPolicy,
  presentHeaders,
  referrerPolicy,
  resourcePolicy,
  structuredToken,
  trimmedHeader,
  varyList,
} from './parse-headers.ts';
import { parseHsts } from './parse-hsts.ts';
import { emptyHtml, parsePage, type ParsedPage } from './parse-html.ts';
import { parseNel, parseReportingEndpoints, parseReportTo } from './parse-reporting.ts';
import { parseServer } from './parse-server.ts';
import type { CookiesFacet, ResponseFacet, SecurityHeadersFacet } from './types.ts';

const DEPRECATED = ['expect-ct', 'public-key-pins', 'public-key-pins-report-only'];
const DISCLOSURE = ['x-aspnet-version', 'x-aspnetmvc-version', 'x-generator', 'x-powered-by'];
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function finalOf(result: ChainResult): HttpExchange | null {
  return result.exchanges.at(-1) ?? null;
}

/** Header map as emitted: Set-Cookie lives in the cookies facet. */
function headersOf(ex: HttpExchange | null): Record<string, string> {
  if (ex === null) return {};
  // No prototype: a host may name a field __proto__.
  const out = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(ex.headers).sort()) if (name !== 'set-cookie') out[name] = ex.headers[name]!;
  return out;
}

const linesOf = (value: string | null): string[] => (value === null ? [] : [value]);

export function collectResponse(result: ChainResult, observedAt: string): ResponseFacet {
  const ex = finalOf(result);
  const headers = headersOf(ex);
  const { mediaType, charset } = parseContentType(header(headers, 'content-type'));
  const altSvc = parseAltSvc(header(headers, 'alt-svc'));
  return {
    chain: result.chain,
    status: ex?.status ?? null,
    headers,
    content_type: mediaType,
    charset,
    content_encoding: ex?.contentEncoding?.toLowerCase() ?? null,
    body_bytes: ex?.body.length ?? null,
    wire_bytes: ex?.wireBytes ?? null,
    body_sha256: ex ? sha256(ex.body) : null,
    truncated: ex?.truncated ?? null,
    http_version: ex?.httpVersion ?? null,
    ttfb_ms: ex ? Math.round(ex.timings.ttfbMs) : null,
    date: httpDate(header(headers, 'date'), observedAt),
    cache_control: parseCacheControl(header(headers, 'cache-control')),
    vary: varyList(header(headers, 'vary')),
    alt_svc: altSvc.protocols,
    alt_svc_error: altSvc.error,
    x_robots_tag: header(headers, 'x-robots-tag'),
  };
}

export function collectSecurityHeaders(result: ChainResult): SecurityHeadersFacet {
  const final = finalOf(result);
  const headers = headersOf(final);
  const pageUrl = result.chain.hops.at(-1)?.url ?? result.chain.url;
  const firstHop = result.chain.hops[0];
  const firstIsHttpsRedirect =
    firstHop !== undefined && firstHop.url.startsWith('https:') && firstHop.location !== null;
  return {
    hsts: {
      ...parseHsts(final?.fieldLines['strict-transport-security']),
      on_first_redirect: firstIsHttpsRedirect ? parseHsts(linesOf(firstHop.strict_transport_security)).valid : null,
    },
    csp: {
      policies: parseCspList(header(headers, 'content-security-policy')),
      report_only: parseCspList(header(headers, 'content-security-policy-report-only')),
    },
    x_content_type_options: contentTypeOptions(header(headers, 'x-content-type-options')),
    x_frame_options: frameOptions(header(headers, 'x-frame-options')),
    referrer_policy: referrerPolicy(header(headers, 'referrer-policy')),
    permissions_policy: permissionsPolicy(header(headers, 'permissions-policy')),
    cross_origin_opener_policy: structuredToken(header(headers, 'cross-origin-opener-policy')),
    cross_origin_embedder_policy: structuredToken(header(headers, 'cross-origin-embedder-policy')),
    cross_origin_resource_policy: resourcePolicy(header(headers, 'cross-origin-resource-policy')),
    x_xss_protection: trimmedHeader(headers, 'x-xss-protection'),
    deprecated: presentHeaders(headers, DEPRECATED),
    server: parseServer(header(headers, 'server')),
    x_powered_by: header(headers, 'x-powered-by'),
    disclosure: presentHeaders(headers, DISCLOSURE),
    reporting_endpoints: parseReportingEndpoints(header(headers, 'reporting-endpoints'), pageUrl),
    report_to: parseReportTo(header(headers, 'report-to'), pageUrl),
    nel: parseNel(header(headers, 'nel')),
  };
}

export function collectCookies(result: ChainResult, observedAt: string): CookiesFacet {
  const items = result.exchanges.flatMap((ex, i) =>
    parseCookiesOf(
      ex.fieldLines['set-cookie'] ?? [],
      result.chain.hops[i]!.url,
      i === result.exchanges.length - 1,
      observedAt,
    ),
  );
  return { count: items.length, items };
}

/** The decoded body, when the final response is an HTML document. */
function htmlText(result: ChainResult): { text: string; url: string; bytes: number } | null {
  const ex = finalOf(result);
  if (ex === null) return null;
  const { mediaType, charset } = parseContentType(ex.headers['content-type']);
  const text = decodeBody(ex.body, charset);
  const isHtml = mediaType === null ? isHtmlPage(text) : HTML_TYPES.has(mediaType);
  return isHtml ? { text, url: result.chain.hops.at(-1)!.url, bytes: ex.body.length } : null;
}

/** The home page parsed: its html facet and the links other facets follow. */
export function parseHomePage(result: ChainResult): ParsedPage {
  const page = htmlText(result);
  if (page === null) return { html: emptyHtml(finalOf(result)?.body.length ?? 0), manifestLink: null };
  return parsePage(page.text, page.url, page.bytes);
}
