// An in-memory site for probe unit tests: a Net whose request() answers from a table of pages by path (404
// otherwise), records every URL asked for, and honours the body cap. The world tests cover the real network.
import { NetError, type HttpExchange, type HttpRequestOptions, type Net } from '../../src/net/types.ts';
import type { ProbeContext } from '../../src/engine/types.ts';

export type Page =
  { status: number; body?: string | Buffer; headers?: Record<string, string>; redirectTo?: string } | NetError;

export interface FakeRequest {
  url: string;
  opts: HttpRequestOptions;
}

export function fakeNet(pages: Record<string, Page>, seen: string[] = [], requests: FakeRequest[] = []): Net {
  const answer = (url: string, opts: HttpRequestOptions): HttpExchange => {
    seen.push(url);
    requests.push({ url, opts });
    const { pathname, search } = new URL(url);
    let page = pages[pathname + search] ?? pages[pathname] ?? { status: 404, body: 'not found' };
    if (page instanceof NetError) throw page;
    const chain = [{ url, status: page.status, location: page.redirectTo ?? null, address: '127.0.0.1' }];
    let finalUrl = url;
    if (page.redirectTo !== undefined && opts.followRedirects) {
      finalUrl = new URL(page.redirectTo, url).href;
      page = pages[new URL(finalUrl).pathname] ?? { status: 404, body: 'not found' };
      if (page instanceof NetError) throw page;
      chain.push({ url: finalUrl, status: page.status, location: null, address: '127.0.0.1' });
    }
    const headers = page.headers ?? { 'content-type': 'text/plain; charset=utf-8' };
    const full = Buffer.isBuffer(page.body) ? page.body : Buffer.from(page.body ?? '');
    const cap = opts.maxBodyBytes ?? full.length;
    return {
      url: finalUrl,
      status: page.status,
      headers,
      fieldLines: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      headerBytes: 100,
      body: full.subarray(0, cap),
      truncated: full.length > cap,
      contentEncoding: null,
      wireBytes: full.length,
      httpVersion: '1.1',
      chain,
      timings: { ttfbMs: 1, totalMs: 1 },
      address: '127.0.0.1',
    };
  };
  // A throw inside the executor rejects, as a failed request does.
  const request = (url: string, opts: HttpRequestOptions = {}) =>
    new Promise<HttpExchange>((resolve) => resolve(answer(url, opts)));
  return { request, ports: { http: 80, https: 443 }, ca: [] } as unknown as Net;
}

/** A probe context on a fake net; `needs` says yes to the given namespace facets (all when none are given). */
export function fakeContext(net: Net, namespace: string, facets?: string[]): ProbeContext {
  return {
    net,
    signal: new AbortController().signal,
    observedAt: '2026-06-01T00:00:00Z',
    log: { debug() {}, info() {}, warn() {} },
    needs: (p) =>
      facets === undefined || facets.some((f) => `${namespace}.${f}` === p || p.startsWith(`${namespace}.${f}.`)),
  };
}
