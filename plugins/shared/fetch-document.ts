// The one way probes fetch a document of the scanned site (robots.txt, llms.txt, security.txt, a sitemap, an
// agent card, an OAuth metadata document...): through the guarded network, once per URL and options in a probe
// run, and described by the same facts everywhere. Besides the answer itself, a document says whether its body
// is an HTML page and whether it is the body the site sends for a path that does not exist (a soft 404), and
// from these whether the site publishes it: the one `published` fact rules read before judging a document.
import { parseContentType } from '../../src/net/content-type.ts';
import { failureFact } from '../../src/net/failure-fact.ts';
import { probeUrl, siteUrl } from '../../src/net/site-url.ts';
import type { HttpExchange, HttpRequestOptions } from '../../src/net/types.ts';
import type { ProbeContext } from '../../src/engine/types.ts';
import type { Document } from '../../src/lib/schema-types/observations/wellknown.ts';
import { bodyIsHtmlPage } from './sniff-html.ts';

/** The response facts of one document (the `document` definition both wellknown.json and agents.json hold). */
export type DocumentFacts = Document;

/** Default cap for one document's body. */
export const DOCUMENT_BYTES = 512 * 1024;

/** A path no site serves on purpose: the reference for soft-404 comparisons. */
export const NOT_FOUND_PATH = '/.well-known/dvs-nonexistent-7c1e0f3a9b52';

/** Every request names an origin, so a document's cross-origin readability is part of its facts. */
const PROBE_ORIGIN = 'https://probe.invalid';

export interface FetchOptions {
  /** The Accept header; none is sent when absent. */
  accept?: string;
  maxBytes?: number;
  /**
   * `follow` (the default): redirects are followed, as crawlers do for robots.txt (RFC 9309 section 2.3.1.2) and
   * readers of the other well-known files. `record`: a 3xx is the answer, as verifiers of discovery documents
   * are told to fetch them.
   */
  redirects?: 'follow' | 'record';
}

export interface Fetched {
  url: string;
  exchange: HttpExchange | null;
  error: string | null;
}

/** A fetched document with its facts; `exchange` is null when no answer came. */
export interface OpenedDocument {
  published: boolean;
  document: DocumentFacts;
  exchange: HttpExchange | null;
}

export function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

export class DocumentFetcher {
  /** The site's origin as the probe reaches it (the probe port when it is not the default). */
  readonly origin: string;
  private readonly memo = new Map<string, Promise<Fetched>>();
  private readonly log: HttpExchange[] = [];

  constructor(
    private readonly ctx: ProbeContext,
    readonly domain: string,
  ) {
    this.origin = siteUrl('https', domain, ctx.net.ports, '');
  }

  /** The URL to request for a path on the scanned host or an absolute URL met in a document. */
  target(pathOrUrl: string): string {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return this.origin + pathOrUrl;
    return probeUrl(new URL(pathOrUrl), this.ctx.net.ports);
  }

  /** Any request of this probe run through the guarded network; every answer is kept for `answered`. */
  async send(url: string, opts: HttpRequestOptions): Promise<HttpExchange> {
    const exchange = await this.ctx.net.request(url, { signal: this.ctx.signal, ...opts });
    this.log.push(exchange);
    return exchange;
  }

  /** GET a document, memoised per URL and options; a network failure becomes the `error` fact. */
  fetch(pathOrUrl: string, opts: FetchOptions = {}): Promise<Fetched> {
    const url = this.target(pathOrUrl);
    const { accept, maxBytes = DOCUMENT_BYTES, redirects = 'follow' } = opts;
    const key = JSON.stringify([url, accept ?? null, maxBytes, redirects]);
    let p = this.memo.get(key);
    if (!p) {
      const headers: Record<string, string> = { origin: PROBE_ORIGIN, ...(accept ? { accept } : {}) };
      p = this.send(url, {
        method: 'GET',
        headers,
        followRedirects: redirects === 'follow',
        maxBodyBytes: maxBytes,
        decompress: true,
      }).then(
        (exchange) => ({ url, exchange, error: null }),
        (err: unknown) => ({ url, exchange: null, error: failureFact(err) }),
      );
      this.memo.set(key, p);
    }
    return p;
  }

  /** The site's answer for a path that does not exist: the reference for soft-404 facts. */
  notFound(): Promise<Fetched> {
    return this.fetch(NOT_FOUND_PATH);
  }

  /** Fetches a document and describes it, its soft-404 fact compared with the site's answer for a missing path. */
  async open(pathOrUrl: string, opts: FetchOptions = {}): Promise<OpenedDocument> {
    const [fetched, reference] = await Promise.all([this.fetch(pathOrUrl, opts), this.notFound()]);
    const document = responseFacts(fetched, reference);
    return { published: isPublished(document), document, exchange: fetched.exchange };
  }

  /** Every answer of this run with the given status, in request order. */
  answered(status: number): HttpExchange[] {
    return this.log.filter((e) => e.status === status);
  }
}

/**
 * Whether the site publishes the document: a 2xx answer with a body that is neither an HTML page nor the
 * site's answer for a path that does not exist. An unknown soft-404 comparison does not count against it.
 */
function isPublished(d: DocumentFacts): boolean {
  return isSuccess(d.status) && (d.bytes ?? 0) > 0 && d.body_is_html === false && d.soft_404 !== true;
}

/** The response facts of a fetched document; `reference` (the nonexistent path) decides the soft-404 fact. */
export function responseFacts(doc: Fetched, reference: Fetched | null): DocumentFacts {
  const ex = doc.exchange;
  if (!ex) {
    return {
      url: doc.url,
      status: null,
      content_type: null,
      charset: null,
      bytes: null,
      truncated: false,
      redirected_to: null,
      redirects: 0,
      error: doc.error,
      body_is_html: null,
      soft_404: null,
      access_control_allow_origin: null,
    };
  }
  const { mediaType, charset } = parseContentType(ex.headers['content-type']);
  return {
    url: doc.url,
    status: ex.status,
    content_type: mediaType,
    charset,
    bytes: ex.body.length,
    truncated: ex.truncated,
    redirected_to: ex.chain.length > 1 ? ex.url : null,
    redirects: Math.max(0, ex.chain.length - 1),
    error: null,
    body_is_html: bodyIsHtmlPage(ex.body),
    soft_404: reference === null ? null : softNotFound(ex, reference.exchange),
    access_control_allow_origin: ex.headers['access-control-allow-origin'] ?? null,
  };
}

/** A 2xx body equal to the 2xx body the site sends for a path that does not exist; null when unknown. */
function softNotFound(ex: HttpExchange, reference: HttpExchange | null): boolean | null {
  if (!isSuccess(ex.status)) return false;
  if (!reference) return null;
  if (!isSuccess(reference.status)) return false;
  return ex.body.equals(reference.body);
}
