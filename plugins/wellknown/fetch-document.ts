// Fetches the site's well-known documents through the guarded network, once each per scan, and turns every
// answer (or failure) into the same response facts. One deterministic nonexistent path is fetched once, so
// each document can say whether its body is just the site's answer for a page that does not exist.
import { gunzipSync } from 'node:zlib';
import { parseContentType } from '../../src/net/content-type.ts';
import { failureFact } from '../../src/net/failure-fact.ts';
import { siteUrl } from '../../src/net/site-url.ts';
import type { HttpExchange } from '../../src/net/types.ts';
import type { ProbeContext } from '../../src/engine/types.ts';
import { looksLikeHtml } from './text.ts';

/** Default cap for one document's body. */
export const DOCUMENT_BYTES = 512 * 1024;

/** A path no site serves on purpose: the reference for soft-404 comparisons and for unknown well-known paths. */
export const NOT_FOUND_PATH = '/.well-known/dvs-nonexistent-7c1e0f3a9b52';

export interface DocumentFacts {
  url: string;
  status: number | null;
  content_type: string | null;
  charset: string | null;
  bytes: number | null;
  truncated: boolean;
  redirected_to: string | null;
  redirects: number;
  error: string | null;
  body_is_html: boolean | null;
  soft_404: boolean | null;
}

export interface Fetched {
  url: string;
  exchange: HttpExchange | null;
  error: string | null;
}

export function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

export class Fetcher {
  readonly origin: string;
  private readonly memo = new Map<string, Promise<Fetched>>();

  constructor(
    private readonly ctx: ProbeContext,
    readonly domain: string,
  ) {
    this.origin = siteUrl('https', domain, ctx.net.ports, '');
  }

  /**
   * The URL to request: a path on the scanned host, or an absolute URL. An https URL on the scanned host at the
   * default port goes to the probe port, so a document naming the site by its public URL is fetched from it.
   */
  target(pathOrUrl: string): string {
    if (!/^https?:\/\//i.test(pathOrUrl)) return this.origin + pathOrUrl;
    const url = new URL(pathOrUrl);
    if (url.protocol === 'https:' && url.port === '' && url.hostname.toLowerCase() === this.domain)
      return this.origin + url.pathname + url.search;
    return url.href;
  }

  /** GET a path on the scanned host (or an absolute URL), following redirects; memoised per URL and cap. */
  get(pathOrUrl: string, maxBodyBytes = DOCUMENT_BYTES): Promise<Fetched> {
    const url = this.target(pathOrUrl);
    const key = `${maxBodyBytes} ${url}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.ctx.net
        .request(url, { method: 'GET', followRedirects: true, maxBodyBytes, decompress: true, signal: this.ctx.signal })
        .then(
          (exchange) => ({ url, exchange, error: null }),
          (err: unknown) => ({ url, exchange: null, error: failureFact(err) }),
        );
      this.memo.set(key, p);
    }
    return p;
  }

  notFound(): Promise<Fetched> {
    return this.get(NOT_FOUND_PATH);
  }

  /** The response facts of a fetched document, its soft-404 fact compared against the nonexistent path. */
  facts(doc: Fetched, reference: Fetched | null = null): DocumentFacts {
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
      body_is_html: ex.body.length > 0 ? looksLikeHtml(ex.body) : false,
      soft_404: reference === null ? null : softNotFound(ex, reference.exchange),
    };
  }

  /** Facts for a document of the site, compared with the nonexistent path. */
  async document(doc: Fetched): Promise<DocumentFacts> {
    return this.facts(doc, await this.notFound());
  }
}

/** A 2xx body equal to the 2xx body the site sends for a path that does not exist; null when unknown. */
function softNotFound(ex: HttpExchange, reference: HttpExchange | null): boolean | null {
  if (!isSuccess(ex.status)) return false;
  if (!reference) return null;
  if (!isSuccess(reference.status)) return false;
  return ex.body.equals(reference.body);
}

/** Bytes of a body that may be a gzip file (sitemap.xml.gz), decompressed within a cap; null beyond it. */
export function gunzipWithin(body: Buffer, maxBytes: number): { bytes: Buffer | null; gzip: boolean } {
  const gzip = body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
  if (!gzip) return { bytes: body, gzip };
  try {
    return { bytes: gunzipSync(body, { maxOutputLength: maxBytes }), gzip };
  } catch {
    return { bytes: null, gzip };
  }
}
