// The routes over the payments side: the checkout, when a processor sells tokens, and the certificates issued
// through the gate (their pages read through a CertificateReader, their status and evidence through the ledger,
// their reports through CertificateReports).
import type Router from '@koa/router';
import type { Config } from '../../lib/config.ts';
import type { Logger } from '../../lib/log.ts';
import type { PaymentProcessor } from '../../payments/processor.ts';
import type { CertificateReports } from '../../service/certificate-report.ts';
import type { CertificateReader } from '../../service/certificate-view.ts';
import type { Certificates } from '../../service/certificates.ts';
import type { RateLimiter } from '../../service/rate-limit.ts';
import { certificateRoutes } from '../rest/certificate-routes.ts';
import { checkoutRoutes } from './checkout-routes.ts';

export interface IssuedCertificates {
  /** Status, evidence and revocation: the ledger's lifecycle. */
  lifecycle: Certificates;
  /** What the certificate pages show. */
  reader: CertificateReader;
  /** The reports they were issued with, for their report pages. */
  reports: CertificateReports;
}

export function paymentRoutes(
  processor: PaymentProcessor | undefined,
  certificates: IssuedCertificates,
  config: Config,
  log: Logger,
  rateLimiter: RateLimiter,
): Router[] {
  const { priceCents, currency, tokenTtlSeconds } = config.payments;
  const checkout = processor
    ? [
        checkoutRoutes({
          processor,
          page: { baseUrl: config.baseUrl, priceCents, currency, tokenTtlSeconds },
          log,
          rateLimiter,
        }),
      ]
    : [];
  return [
    ...checkout,
    certificateRoutes(
      { reader: certificates.reader, certificates: certificates.lifecycle, reports: certificates.reports },
      config.baseUrl,
    ),
  ];
}
