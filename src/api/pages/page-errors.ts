// Errors on routes a person may open in a browser: the same status and message as the Error body, as a page
// when the client prefers HTML; programs still get the JSON body from errors.ts.
import type { Context, Middleware } from 'koa';
import { ApiError } from '../http/errors.ts';
import { sendPage } from './page-layout.ts';
import { problemPage } from './report-page.ts';

/** True when the client ranks HTML above JSON (browsers); no Accept, or `*\/*`, means a program. */
export function prefersHtml(ctx: Context): boolean {
  return ctx.accepts('application/json', 'text/html') === 'text/html';
}

export function pageErrors(domainOf: (ctx: Context) => string = () => ''): Middleware {
  return async function htmlErrors(ctx, next) {
    ctx.vary('Accept');
    try {
      await next();
    } catch (err) {
      if (!(err instanceof ApiError) || !prefersHtml(ctx)) throw err;
      ctx.set(err.headers);
      sendPage(ctx, problemPage(err.status, err.message, domainOf(ctx)), err.status);
    }
  };
}
