// The payments routes alone, in the API's Koa app over plain HTTP on 127.0.0.1: enough to test the checkout,
// the webhook and the certificate route without starting a scanner.
import { CertificateReports } from '../../src/service/certificate-report.ts';
import { LedgerCertificates } from '../../src/service/certificate-view.ts';
import { Certificates } from '../../src/service/certificates.ts';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createApp } from '../../src/api/http/app.ts';
import { paymentRoutes } from '../../src/api/checkout/payment-routes.ts';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { createLogger } from '../../src/lib/log.ts';
import { openPayments, type Payments } from '../../src/payments/index.ts';
import { WindowRateLimiter } from '../../src/service/rate-limit.ts';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface CheckoutApp {
  url: string;
  config: Config;
  payments: Payments;
  call(
    method: string,
    pathname: string,
    init?: { body?: string | Buffer; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export async function startCheckoutApp(
  env: Record<string, string> = {},
  logTo?: NodeJS.WritableStream,
): Promise<CheckoutApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-checkout-'));
  const config = loadConfig({
    DVS_DATA_DIR: dataDir,
    DVS_LOG_LEVEL: 'silent',
    DVS_BASE_URL: 'https://dvs.example.net',
    ...env,
  });
  const log = createLogger(config, logTo);
  const payments = await openPayments(config, log);
  const lifecycle = new Certificates(payments.certificates);
  const reader = new LedgerCertificates(lifecycle);
  // No rule catalogue: these tests issue no certificate whose report a page would show.
  const ruleset = { byId: new Map(), rules: [] };
  const app = createApp({
    baseUrl: config.baseUrl,
    trustProxy: null,
    log,
    routers: paymentRoutes(
      payments.processor,
      {
        lifecycle,
        reader,
        reports: new CertificateReports({ reader, gate: payments.gate, lifecycle, ruleset }),
      },
      config,
      log,
      new WindowRateLimiter(config.quickScan.rateLimitPerMinute),
    ),
  });
  const handle = app.callback();
  // Koa answers every error itself (ctx.onerror), so the listener lets its promise go.
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    config,
    payments,
    async call(method, pathname, init = {}) {
      const res = await request(url + pathname, { method: method as 'GET', headers: init.headers, body: init.body });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers, text: await res.body.text() };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await payments.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The token shown on a token page. */
export function tokenOnPage(html: string): string | null {
  return /<code id="token" class="token">([^<]+)<\/code>/.exec(html)?.[1] ?? null;
}
