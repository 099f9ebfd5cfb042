// The Koa application: middleware that only translates between HTTP and the service.
import Koa from 'koa';
import Router from '@koa/router';
import type { ProxyTrust } from '../../lib/config.ts';
import type { AppLogger } from '../../lib/log.ts';
import { errorHandler } from './errors.ts';
import { requestTarget } from './request-target.ts';
import { forwardedClient } from './forwarded-client.ts';
import { httpsOnly } from './https-only.ts';
import { requestLog } from './request-log.ts';
import { securityHeaders } from './security-headers.ts';

export interface AppOptions {
  baseUrl: string;
  /** The proxies whose forwarding headers name the client (null: none, the socket's peer is the client). */
  trustProxy: ProxyTrust | null;
  log: AppLogger;
  /** Routers mounted in order (scan routes, documents, MCP, checkout...). */
  routers: Router[];
  /** Middleware that wraps every response after errors are shaped (e.g. response signing). */
  wrap?: Koa.Middleware[];
  /** Runs once the client is known, before the routes (e.g. caller identity). */
  identify?: Koa.Middleware;
}

export function createApp(opts: AppOptions): Koa {
  // Koa's own proxy support believes the leftmost X-Forwarded-For, which the client writes: forwarded-client.ts
  // reads the headers instead.
  const app = new Koa();
  app.silent = true;
  app.use(requestLog(opts.log));
  for (const w of opts.wrap ?? []) app.use(w);
  app.use(errorHandler({ baseUrl: opts.baseUrl, log: opts.log }));
  app.use(requestTarget(opts.baseUrl));
  app.use(securityHeaders());
  if (opts.trustProxy) app.use(forwardedClient(opts.trustProxy)).use(httpsOnly());
  if (opts.identify) app.use(opts.identify);
  for (const r of opts.routers) {
    app.use(r.routes());
    app.use(r.allowedMethods());
  }
  return app;
}
