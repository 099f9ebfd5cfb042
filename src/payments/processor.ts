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

/** Test mode: every click is a free token. Clearly labelled as such on the page. */
export function embeddedProcessor(ledger: Ledger): PaymentProcessor {
  return {
    name: 'embedded',
    mode: 'test',
    formOrigins: [],
    async start() {
      const [issued] = await ledger.issue({ source: 'checkout' });
      return { kind: 'token', issued: issued! };
    },
  };
}
