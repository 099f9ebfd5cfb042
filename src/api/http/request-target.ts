// The request target (RFC 9112 section 3.2). Clients send the path ("origin-form"); a client speaking to a proxy
// sends the whole URL ("absolute-form"), which a server must accept, and then its authority is the one the request
// is for. A URL naming this service is served as its path; one naming another authority, or another scheme, is
// refused: Koa would route it by its path alone, and a signature checked against a URL built from it would cover
// an authority of the caller's choosing (issue 31 item 8: `work://z/api/quickscan` verified for "localhostwork").
import type { Middleware } from 'koa';
import { ApiError } from './errors.ts';

export function requestTarget(baseUrl: string): Middleware {
  const origin = new URL(baseUrl).origin;
  return async function originForm(ctx, next) {
    const target = ctx.url;
    if (target.startsWith('/') || (target === '*' && ctx.method === 'OPTIONS')) {
      await next();
      return;
    }
    let url: URL | null = null;
    try {
      url = new URL(target);
    } catch {
      // Neither a path nor a URL: refused below.
    }
    if (url?.origin !== origin)
      throw new ApiError(400, `the request target must be a path, or a URL of ${origin}`, '/docs/api#requests');
    ctx.url = url.pathname + url.search;
    await next();
  };
}
