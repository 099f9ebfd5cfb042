// CSRF defence for the forms people submit (the checkout click, the Quick Scan form): browsers send Origin on
// every cross-site POST, so a form on another site is refused; a request with neither Origin nor Referer is
// refused too (non-browser clients can say where they come from, or use the API).
import type { Context } from 'koa';

export function fromOurOrigin(ctx: Context, baseUrl: string): boolean {
  // Browsers that send Fetch Metadata say outright whether the request came from another site.
  const site = ctx.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  // Koa 3's ctx.origin is the Origin header itself, so our own origin is built from protocol and Host.
  const ours = new Set([baseUrl, `${ctx.protocol}://${ctx.host}`]);
  const origin = ctx.get('origin');
  if (origin) return ours.has(origin);
  const referer = ctx.get('referer');
  if (!referer) return false;
  try {
    return ours.has(new URL(referer).origin);
  } catch {
    return false;
  }
}
