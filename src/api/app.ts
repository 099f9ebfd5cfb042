// The Koa application: middleware that only translates between HTTP and the service.
import Koa from 'koa';
import Router from '@koa/router';
import type { AppLogger } from '../lib/log.ts';
import { errorHandler } from './errors.ts';
import { httpsOnly } from './https-only.ts';
import { requestLog } from './request-log.ts';
import { securityHeaders } from './security-headers.ts';

export interface AppOptions {
  baseUrl: string;
  trustProxy: boolean;
  log: AppLogger;
  /** Routers mounted in order (scan routes, documents, MCP, checkout...). */
  routers: Router[];
  /** Middleware that wraps every response after errors are shaped (e.g. response signing). */
  wrap?: Koa.Middleware[];
}

export function createApp(opts: AppOptions): Koa {
  const app = new Koa({ proxy: opts.trustProxy });
  app.silent = true;
  app.use(requestLog(opts.log));
  for (const w of opts.wrap ?? []) app.use(w);
  app.use(errorHandler({ baseUrl: opts.baseUrl, log: opts.log }));
  app.use(securityHeaders());
  if (opts.trustProxy) app.use(httpsOnly());
  for (const r of opts.routers) {
    app.use(r.routes());
    app.use(r.allowedMethods());
  }
  return app;
}
