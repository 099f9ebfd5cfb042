// The routes over the payments side: the checkout, when a processor sells tokens, and the certificates issued
// through the gate (read through a CertificateReader, the ledger's by default).
import type Router from '@koa/router';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/log.ts';
import type { PaymentGate } from '../payments/gate.ts';
import type { PaymentProcessor } from '../payments/processor.ts';
import { LedgerCertificates, type CertificateReader } from '../service/certificate-view.ts';
import type { RateLimiter } from '../service/rate-limit.ts';
import { certificateRoutes } from './certificate-routes.ts';
import { checkoutRoutes } from './checkout-routes.ts';

export function paymentRoutes(
  payments: { gate: PaymentGate; processor?: PaymentProcessor },
  config: Config,
  log: Logger,
  rateLimiter: RateLimiter,
  certificates: CertificateReader = new LedgerCertificates(payments.gate),
): Router[] {
  const { priceCents, currency, tokenTtlSeconds } = config.payments;
  const checkout = payments.processor
    ? [
        checkoutRoutes({
          processor: payments.processor,
          page: { baseUrl: config.baseUrl, priceCents, currency, tokenTtlSeconds },
          log,
          rateLimiter,
        }),
      ]
    : [];
  return [...checkout, certificateRoutes(certificates, config.baseUrl)];
}
