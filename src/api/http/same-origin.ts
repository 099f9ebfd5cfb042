// Where a request says it comes from. The forms people submit (the checkout click, the Quick Scan form) are a
// CSRF target: browsers send Origin on every cross-site POST, so a form on another site is refused, and so is a
// request with neither Origin nor Referer (non-browser clients can say where they come from, or use the API).
// /mcp is a DNS-rebinding target instead: the MCP transport (2025-11-25) refuses a present Origin it does not
// allow, and lets a client that sends none (every non-browser one) through.
import type { Context } from 'koa';

/** Our own origins: the public one, and the one this request reached (Koa 3's ctx.origin is the Origin header). */
const ourOrigins = (ctx: Context, baseUrl: string, also: readonly string[] = []): Set<string> =>
  new Set([baseUrl, `${ctx.protocol}://${ctx.host}`, ...also]);

/** Whether a request's Origin, when it sends one, is ours or one of `allowed`. */
export function originAllowed(ctx: Context, baseUrl: string, allowed: readonly string[]): boolean {
  const origin = ctx.get('origin');
  return !origin || ourOrigins(ctx, baseUrl, allowed).has(origin);
}

export function fromOurOrigin(ctx: Context, baseUrl: string): boolean {
  // Browsers that send Fetch Metadata say outright whether the request came from another site.
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  if (ctx.get('origin')) return originAllowed(ctx, baseUrl, []);
  const referer = ctx.get('referer');
  if (!referer) return false;
  try {
    return ourOrigins(ctx, baseUrl).has(new URL(referer).origin);
  } catch {
    return false;
  }
}
