// Behind a TLS-terminating proxy the service trusts the protocol the proxies report (forwarded-client.ts), and
// refuses a request that reached them over plain HTTP rather than serving it: HTTPS only, whatever is in front.
// (The hop from the proxy is TLS too, since the service only listens on HTTPS, so the socket alone cannot tell.)
import type { Middleware } from 'koa';
import { ApiError } from './errors.ts';

export function httpsOnly(): Middleware {
  return async function requireHttps(ctx, next) {
    if (ctx.state.forwardedProto !== 'https')
      throw new ApiError(403, 'this service is served over HTTPS only; use an https:// URL', '/docs/api');
    await next();
  };
}
