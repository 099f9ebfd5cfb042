// Fetches documents from the scanned site through the guarded network and turns each answer into response facts.
// Discovery documents are fetched the way verifiers are told to: no credentials, no redirects followed (a 3xx
// is recorded as what the site answered), a size cap. Every answer is kept in a log so the commerce facet can
// report the 402 challenges this probe met.
import { parseContentType } from '../../src/net/content-type.ts';
import { failureFact } from '../../src/net/failure-fact.ts';
import { siteUrl } from '../../src/net/site-url.ts';
import type { HttpExchange, HttpRequestOptions } from '../../src/net/types.ts';
import type { ProbeContext } from '../../src/engine/types.ts';

export interface ResponseFacts {
  url: string;
  status: number | null;
  content_type: string | null;
  bytes: number | null;
  truncated: boolean;
  error: string | null;
  looks_html: boolean;
  access_control_allow_origin: string | null;
  json_parsed: boolean;
  parse_error: string | null;
}

export interface Fetched {
  response: ResponseFacts;
  /** The parsed JSON body, or undefined when it was not parsed. */
  json: unknown;
  exchange: HttpExchange | null;
}

/** Cap for discovery documents; OpenAPI descriptions get more room. */
export const DOCUMENT_BYTES = 256 * 1024;
export const OPENAPI_BYTES = 2 * 1024 * 1024;

/** Cross-origin readability is part of what a discovery document offers, so each fetch names an origin. */
const PROBE_ORIGIN = 'https://probe.invalid';

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export class Fetcher {
  readonly origin: string;
  private readonly base: string;
  private readonly log: HttpExchange[] = [];

  constructor(
    private readonly ctx: ProbeContext,
    readonly domain: string,
  ) {
    // Documents name the site by its public origin; requests go to the probe port.
    this.origin = `https://${domain}`;
    this.base = siteUrl('https', domain, ctx.net.ports, '');
  }

  /** The URL of a path on the scanned site as the probe requests it. */
  url(path: string): string {
    return `${this.base}${path}`;
  }

  /** Maps a declared https URL without a port to the probe's https port. */
  requestUrl(declared: string): string {
    const u = new URL(declared);
    if (u.protocol === 'https:' && u.port === '' && this.ctx.net.ports.https !== 443)
      u.port = String(this.ctx.net.ports.https);
    return u.href;
  }

  async send(url: string, opts: HttpRequestOptions): Promise<HttpExchange> {
    const exchange = await this.ctx.net.request(url, { followRedirects: false, signal: this.ctx.signal, ...opts });
    this.log.push(exchange);
    return exchange;
  }

  /** GETs a path; `json` says whether to parse a 2xx body as JSON. */
  async get(path: string, opts: { accept: string; json: boolean; maxBodyBytes?: number }): Promise<Fetched> {
    const url = this.url(path);
    let exchange: HttpExchange;
    try {
      exchange = await this.send(url, {
        method: 'GET',
        headers: { accept: opts.accept, origin: PROBE_ORIGIN },
        maxBodyBytes: opts.maxBodyBytes ?? DOCUMENT_BYTES,
        decompress: true,
      });
    } catch (err) {
      return { response: failed(url, failureFact(err)), json: undefined, exchange: null };
    }
    const text = stripBom(exchange.body.toString('utf8'));
    const response: ResponseFacts = {
      url,
      status: exchange.status,
      content_type: parseContentType(exchange.headers['content-type']).mediaType,
      bytes: exchange.body.length,
      truncated: exchange.truncated,
      error: null,
      looks_html: /^\s*</.test(text),
      access_control_allow_origin: exchange.headers['access-control-allow-origin'] ?? null,
      json_parsed: false,
      parse_error: null,
    };
    let json: unknown;
    if (opts.json && exchange.status >= 200 && exchange.status < 300) {
      try {
        json = JSON.parse(text);
        response.json_parsed = true;
      } catch (err) {
        response.parse_error = (err as Error).message;
      }
    }
    return { response, json, exchange };
  }

  /** Every answer of this run with the given status, in request order. */
  answered(status: number): HttpExchange[] {
    return this.log.filter((e) => e.status === status);
  }
}

function failed(url: string, error: string): ResponseFacts {
  return {
    url,
    status: null,
    content_type: null,
    bytes: null,
    truncated: false,
    error,
    looks_html: false,
    access_control_allow_origin: null,
    json_parsed: false,
    parse_error: null,
  };
}
