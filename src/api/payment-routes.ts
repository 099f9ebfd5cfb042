// The routes over the payments side: the checkout, when a processor sells tokens, and the certificates issued
// through the gate (their pages read through a CertificateReader, their status and evidence through the ledger).
import type Router from '@koa/router';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/log.ts';
import type { CertificateRegistry, PaymentGate } from '../payments/gate.ts';
import type { PaymentProcessor } from '../payments/processor.ts';
import { LedgerCertificates, type CertificateReader } from '../service/certificate-view.ts';
import { Certificates, registryOverGate } from '../service/certificates.ts';
import type { RateLimiter } from '../service/rate-limit.ts';
import { certificateRoutes } from './certificate-routes.ts';
import { checkoutRoutes } from './checkout-routes.ts';

export function paymentRoutes(
  payments: { gate: PaymentGate; processor?: PaymentProcessor; certificates?: CertificateRegistry },
  config: Config,
  log: Logger,
  rateLimiter: RateLimiter,
  reader: CertificateReader = new LedgerCertificates(payments.gate),
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
  const certificates = new Certificates(payments.certificates ?? registryOverGate(payments.gate));
  return [...checkout, certificateRoutes(reader, certificates, config.baseUrl)];
}
