// Stripe Checkout: a Checkout Session per click, and the token minted when Stripe's signed
// `checkout.session.completed` webhook says the session is paid. The token is derived from the session id with
// a key only this service holds (tokens.ts), so the success page can show it without the ledger storing it.
import Stripe from 'stripe';
import type { Logger } from '../lib/log.ts';
import type { Ledger } from './ledger.ts';
import {
  CheckoutUnavailableError,
  WebhookSignatureError,
  type PaymentProcessor,
  type WebhookOutcome,
} from './processor.ts';
import { TokenDeriver } from './tokens.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API endpoint (a local stand-in in tests), e.g. http://127.0.0.1:12111. */
  apiBase: string | null;
  priceCents: number;
  currency: string;
  baseUrl: string;
}

const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;
const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

function endpoint(apiBase: string | null): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** Stripe's failures as the buyer should hear them: unreachable is 503 (try again), anything else 502. */
function unavailable(err: unknown): unknown {
  if (err instanceof Stripe.errors.StripeConnectionError)
    return new CheckoutUnavailableError(
      'the payment processor (Stripe) cannot be reached right now; try again in a minute',
      503,
      60,
    );
  if (err instanceof Stripe.errors.StripeError)
    return new CheckoutUnavailableError(
      `the payment processor (Stripe) did not start the checkout (${err.type}); try again later`,
      502,
      60,
    );
  return err;
}

export function stripeProcessor(settings: StripeSettings, ledger: Ledger, log: Logger): PaymentProcessor {
  const stripe = new Stripe(settings.secretKey, {
    ...endpoint(settings.apiBase),
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
  const deriver = new TokenDeriver(settings.secretKey, 'live');

  const createSession = () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: settings.currency,
            unit_amount: settings.priceCents,
            product_data: {
              name: 'Full Validation',
              description: 'One signed Full Validation of one domain (one payment token).',
            },
          },
        },
      ],
      success_url: `${settings.baseUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${settings.baseUrl}/checkout?cancelled=1`,
    });

  return {
    name: 'stripe',
    mode: 'live',
    formOrigins: ['https://checkout.stripe.com'],

    async start() {
      const session = await createSession().catch((err: unknown) => {
        throw unavailable(err);
      });
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { kind: 'redirect', url: session.url };
    },

    async confirmation(sessionId) {
      if (!SESSION_ID.test(sessionId)) return null;
      const token = deriver.tokenFor(sessionId);
      const status = await ledger.status(token);
      return status ? { kind: 'paid', issued: { token, expiresAt: status.expiresAt } } : { kind: 'pending' };
    },

    async webhook(raw, signature): Promise<WebhookOutcome> {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(raw, signature, settings.webhookSecret);
      } catch (err) {
        throw new WebhookSignatureError((err as Error).message);
      }
      if (!PAID_EVENTS.has(event.type)) return { handled: false, type: event.type };
      const session = event.data.object as Stripe.Checkout.Session;
      // An asynchronous payment method completes the session unpaid; its success event comes later.
      if (session.payment_status === 'unpaid') return { handled: true, minted: false };
      const minted = await ledger.record(deriver.tokenFor(session.id), `stripe:${session.id}`);
      log.info(
        { session: session.id, event: event.id, minted },
        minted ? 'payment confirmed: token minted' : 'payment confirmation repeated',
      );
      return { handled: true, minted };
    },
  };
}
