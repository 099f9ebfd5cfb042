// Headers every response carries: the service is HTTPS-only and serves data, not pages (the checkout page
// sets its own, narrower policy).
import type { Middleware } from 'koa';

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaders(): Middleware {
  return async function headers(ctx, next) {
    ctx.set({
      'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
      'Content-Security-Policy': API_CSP,
      'Cache-Control': 'no-store',
    });
    await next();
  };
}
