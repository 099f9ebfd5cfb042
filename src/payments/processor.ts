// How a buyer gets a token: the processor behind the checkout page. The embedded test-mode processor mints
// one on the click; a real processor takes the buyer to its payment page and mints when it confirms payment.
import type { IssuedToken, Ledger } from './ledger.ts';
import type { TokenMode } from './tokens.ts';

export type CheckoutStart =
  /** The token, right away. */
  | { kind: 'token'; issued: IssuedToken }
  /** Send the buyer to the processor's payment page. */
  | { kind: 'redirect'; url: string };

export type Confirmation =
  /** The payment is confirmed and this is its token. */
  | { kind: 'paid'; issued: IssuedToken }
  /** No confirmation yet (the webhook has not arrived); look again shortly. */
  | { kind: 'pending' };

export interface PaymentProcessor {
  readonly name: 'embedded' | 'stripe';
  readonly mode: TokenMode;
  /** Origins besides our own that the checkout form may lead to (its CSP form-action). */
  readonly formOrigins: readonly string[];
  /** The buyer clicked "buy". */
  start(): Promise<CheckoutStart>;
  /** Processors that confirm asynchronously: the token for a payment reference, once confirmed. */
  confirmation?(reference: string): Promise<Confirmation | null>;
  /** Processors that notify by webhook: verifies and handles one notification (raw body, signature header). */
  webhook?(raw: Buffer, signature: string): Promise<WebhookOutcome>;
}

export type WebhookOutcome = { handled: true; minted: boolean } | { handled: false; type: string };

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** The checkout cannot sell now, for a reason that is not the buyer's: 502 (the processor failed) or 503. */
export class CheckoutUnavailableError extends Error {
  override name = 'CheckoutUnavailableError';
  constructor(
    message: string,
    readonly status: 502 | 503,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

const CHECKOUT_SOURCE = 'checkout';

/**
 * Test mode: every click is a free token, clearly labelled as such on the page. At most `cap` of them stand
 * unused at once, so the free checkout cannot fill the ledger.
 */
export function embeddedProcessor(ledger: Ledger, cap: number): PaymentProcessor {
  return {
    name: 'embedded',
    mode: 'test',
    formOrigins: [],
    async start() {
      if ((await ledger.unusedCount(CHECKOUT_SOURCE)) >= cap) {
        throw new CheckoutUnavailableError(
          `the test-mode checkout has ${cap} unused tokens outstanding, its limit; use one, or try again once some have expired`,
          503,
          3600,
        );
      }
      const [issued] = await ledger.issue({ source: CHECKOUT_SOURCE });
      return { kind: 'token', issued: issued! };
    },
  };
}
