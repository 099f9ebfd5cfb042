// The checkout: GET /checkout (the page), POST /checkout/session (the click), GET /checkout/success (back from a
// processor's payment page) and POST /checkout/webhook (the processor's signed confirmation). HTML pages carry
// their own CSP; the API's "nothing at all" policy stays on everything else.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from '../../lib/log.ts';
import { checkoutCsp, checkoutPage, pendingPage, tokenPage, type PageContext } from './checkout-page.ts';
import {
  CheckoutUnavailableError,
  WebhookSignatureError,
  type CheckoutStart,
  type PaymentProcessor,
} from '../../payments/processor.ts';
import type { RateLimiter } from '../../service/rate-limit.ts';
import { ApiError } from '../http/errors.ts';
import { fromOurOrigin } from '../http/same-origin.ts';
import { throttledWarning } from '../http/throttled-warning.ts';

export interface CheckoutDeps {
  processor: PaymentProcessor;
  page: Omit<PageContext, 'mode' | 'formOrigins'>;
  log: Logger;
  /** The per-client limiter the scans use; checkouts count under a key of their own. */
  rateLimiter: RateLimiter;
}

/** One click: within the client's budget, and the processor's failures as a 502/503 the buyer can act on. */
async function startCheckout(ctx: Context, deps: CheckoutDeps): Promise<CheckoutStart> {
  const decision = await deps.rateLimiter.take(`checkout:${ctx.ip}`);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      `too many checkouts from this client; try again in ${decision.retryAfter} s`,
      '/docs/api#limits',
      { 'Retry-After': String(decision.retryAfter) },
    );
  }
  try {
    return await deps.processor.start();
  } catch (err) {
    if (!(err instanceof CheckoutUnavailableError)) throw err;
    deps.log.warn({ err: err.message, processor: deps.processor.name }, 'checkout unavailable');
    throw new ApiError(err.status, err.message, '/checkout', { 'Retry-After': String(err.retryAfterSeconds) });
  }
}

const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The exact bytes the processor signed: no parser may touch the body before the signature is checked. */
async function rawBody(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, 'the request body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function checkoutRoutes(deps: CheckoutDeps): Router {
  const { processor, log } = deps;
  const page: PageContext = { ...deps.page, mode: processor.mode, formOrigins: processor.formOrigins };
  const csp = checkoutCsp(processor.formOrigins);
  const html = (ctx: Context, text: string) => {
    ctx.set('Content-Security-Policy', csp);
    // The API's no-referrer would make browsers send `Origin: null` with the form, defeating the origin check.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = text;
  };
  const router = new Router();

  router.get('/checkout', (ctx) => {
    html(ctx, checkoutPage(page, { cancelled: ctx.query.cancelled === '1' }));
  });

  router.post('/checkout/session', async (ctx) => {
    if (!fromOurOrigin(ctx, page.baseUrl)) {
      throw new ApiError(
        403,
        'a checkout must be started from the checkout page of this service (the Origin header did not match)',
        '/checkout',
      );
    }
    const started = await startCheckout(ctx, deps);
    if (started.kind === 'redirect') {
      ctx.status = 303;
      ctx.redirect(started.url);
      return;
    }
    log.info(
      { processor: processor.name, expires_at: started.issued.expiresAt.toISOString() },
      'checkout issued a token',
    );
    html(ctx, tokenPage(page, started.issued));
  });

  if (processor.confirmation) {
    const confirmation = processor.confirmation.bind(processor);
    router.get('/checkout/success', async (ctx) => {
      const reference = typeof ctx.query.session_id === 'string' ? ctx.query.session_id : '';
      const found = await confirmation(reference);
      if (!found) throw new ApiError(404, 'no checkout session with this id is known here', '/checkout');
      html(ctx, found.kind === 'paid' ? tokenPage(page, found.issued) : pendingPage());
    });
  }

  if (processor.webhook) {
    const webhook = processor.webhook.bind(processor);
    const forged = throttledWarning(log, 'webhook refused: signature did not verify');
    router.post('/checkout/webhook', async (ctx) => {
      const signature = ctx.get('stripe-signature');
      if (!signature) throw new ApiError(400, 'the webhook carries no Stripe-Signature header');
      const raw = await rawBody(ctx, WEBHOOK_BODY_LIMIT);
      try {
        const outcome = await webhook(raw, signature);
        ctx.body = outcome.handled
          ? { received: true, minted: outcome.minted }
          : { received: true, ignored: outcome.type };
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          forged({ err: err.message });
          throw new ApiError(400, 'the webhook signature did not verify');
        }
        throw err;
      }
    });
  }

  return router;
}
