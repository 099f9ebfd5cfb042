// Starting and stopping the whole service: keys, ledger, scanner, the Koa app on HTTPS, the optional
// plain-HTTP redirect and metrics listeners, and graceful shutdown that lets running validations finish.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Config } from '../lib/config.ts';
import type Koa from 'koa';
import { loadRunRuleset } from '../engine/compiled-ruleset.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { providers } from '../../plugins/index.ts';
import { createApp } from '../api/app.ts';
import { documentRoutes } from '../api/document-routes.ts';
import { healthRoutes } from '../api/health-routes.ts';
import { mcpRoutes } from '../api/mcp-routes.ts';
import { pageRoutes } from '../api/page-routes.ts';
import { paymentRoutes } from '../api/payment-routes.ts';
import { signResponses } from '../api/response-signing.ts';
import { ScanOperations } from '../api/scan-operations.ts';
import { scanRoutes } from '../api/scan-routes.ts';
import { createLogger, type AppLogger } from '../lib/log.ts';
import { privateDir } from '../lib/private-files.ts';
import type { CertificateRegistry, PaymentGate } from '../payments/gate.ts';
import type { PaymentProcessor } from '../payments/processor.ts';
import { createScanner } from '../service/scanner.ts';
import { Certificates, registryOverGate } from '../service/certificates.ts';
import { LedgerCertificates } from '../service/certificate-view.ts';
import { createScanSlots } from '../service/scan-slots.ts';
import { FullValidations } from '../service/full-validations.ts';
import { QuickScanReports } from '../service/report-view.ts';
import { QuickScans } from '../service/quick-scans.ts';
import { openSharedState, type SharedState } from '../service/shared-state.ts';
import { buildJwks, loadRetiredKeys, type ServiceJwks } from '../signing/jwks.ts';
import { loadAgentKey, loadSigningKey, type SigningKey } from '../signing/keys.ts';
import { clientTimeoutOptions } from './client-timeouts.ts';
import { startRedirectServer } from './http-redirect.ts';
import { PromMetrics, startMetricsServer } from './metrics.ts';
import { selfSignedForLocalhost } from './self-signed.ts';

/** What the payments side hands the server (src/payments/index.ts `openPayments`). */
export interface PaymentsHandle {
  gate: PaymentGate;
  close(): Promise<void>;
  /** Sells tokens; the checkout is mounted when there is one. */
  processor?: PaymentProcessor;
  /** The certificates' status and evidence (the ledger); without it only the bodies are known. */
  certificates?: CertificateRegistry;
  /** Resolves when the ledger answers; readiness uses it when offered. */
  ready?(): Promise<void>;
}

export interface ServiceOptions {
  log?: AppLogger;
  /** The payments side (`openPayments` in production, an in-memory ledger in tests); closed with the service. */
  payments: PaymentsHandle;
}

export interface RunningService {
  /** https://localhost:port the service listens on (the bound port, useful when configured as 0). */
  url: string;
  port: number;
  /** The bound ports of the optional plain-HTTP redirect and metrics listeners. */
  httpPort: number | null;
  metricsPort: number | null;
  /** Stops accepting work, waits for running validations (up to the full deadline), then closes. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Everything below the HTTP layer, wired from the configuration; `drain` stops new scans being accepted. */
interface Core {
  log: AppLogger;
  ruleset: Ruleset;
  signingKey: SigningKey;
  jwks: ServiceJwks;
  agentKey: SigningKey | null;
  metrics: PromMetrics;
  shared: SharedState;
  quickScans: QuickScans;
  fullValidations: FullValidations;
  ops: ScanOperations;
  certificates: LedgerCertificates;
  draining(): boolean;
  drain(): void;
}

async function wireCore(config: Config, payments: PaymentsHandle, log: AppLogger): Promise<Core> {
  privateDir(config.dataDir);
  // The checked ruleset, from an artifact in the data dir that matches the lock: the service starts without
  // re-running every schema and example (dvs rules check and the tests do that).
  const ruleset = loadRunRuleset(path.join(config.dataDir, 'cache'));
  const signingKey = await loadSigningKey(config.dataDir);
  const jwks = buildJwks(signingKey.publicJwk, loadRetiredKeys(config.dataDir));
  const agentKey = config.net.agentSigning ? await loadAgentKey(config.dataDir) : null;
  const metrics = new PromMetrics();
  const slots = createScanSlots(config.scans);
  const scanner = createScanner({ config, ruleset, providers, log, agentKey, slots });
  const shared = openSharedState(config, log);
  const quickScans = new QuickScans({
    scanner,
    ruleset,
    cache: shared.cache,
    ttlSeconds: config.quickScan.cacheTtlSeconds,
    rateLimiter: shared.rateLimiter,
    metrics,
  });
  const fullValidations = new FullValidations({
    scanner,
    ruleset,
    gate: payments.gate,
    signingKey,
    baseUrl: config.baseUrl,
    lifetimeSeconds: config.certificates.lifetimeSeconds,
    log,
    metrics,
    waitForHolderMs: config.deadlines.fullMs + 5_000,
  });
  let draining = false;
  const ops = new ScanOperations({
    quickScans,
    fullValidations,
    extraSuffixes: config.extraSuffixes,
    accepting: () => !draining,
  });
  const lifecycle = new Certificates(payments.certificates ?? registryOverGate(payments.gate));
  const certificates = new LedgerCertificates(payments.gate, undefined, lifecycle);
  return {
    log,
    ruleset,
    signingKey,
    jwks,
    agentKey,
    metrics,
    shared,
    quickScans,
    fullValidations,
    ops,
    certificates,
    draining: () => draining,
    drain: () => {
      draining = true;
    },
  };
}

function readiness(core: Core, payments: PaymentsHandle) {
  return {
    async problem(): Promise<string | null> {
      if (core.draining()) return 'shutting down';
      if (core.ruleset.rules.length === 0) return 'no rules loaded';
      try {
        await payments.ready?.();
      } catch (err) {
        // The driver's message names hosts and users: it goes to the log, not to whoever asks /readyz.
        core.log.warn({ err: (err as Error).message }, 'readiness: the payment ledger does not answer');
        return 'the payment ledger does not answer';
      }
      return null;
    },
  };
}

function buildApp(config: Config, payments: PaymentsHandle, core: Core): Koa {
  const { log, ops, certificates } = core;
  return createApp({
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    log,
    wrap: [core.metrics.requestCounter(), signResponses(core.signingKey)],
    routers: [
      healthRoutes(readiness(core, payments)),
      scanRoutes(ops),
      mcpRoutes(ops, config.baseUrl, log),
      documentRoutes({ config, jwks: core.jwks, agentKey: core.agentKey }),
      pageRoutes({
        ops,
        reports: new QuickScanReports(core.quickScans, core.ruleset),
        certificates,
        baseUrl: config.baseUrl,
        quickScanTtlSeconds: config.quickScan.cacheTtlSeconds,
      }),
      ...paymentRoutes(payments, config, log, core.shared.rateLimiter, certificates),
    ],
  });
}

/** The HTTPS listener, bound; on failure it closes what the service was given, so nothing stays open. */
async function listenHttps(config: Config, app: Koa, release: () => Promise<void>): Promise<https.Server> {
  const tlsMaterial = config.tls.certFile
    ? { cert: readFileSync(config.tls.certFile, 'utf8'), key: readFileSync(config.tls.keyFile!, 'utf8') }
    : await selfSignedForLocalhost(config.dataDir);
  const handle = app.callback();
  const server = https.createServer(
    { ...tlsMaterial, minVersion: 'TLSv1.2', ...clientTimeoutOptions(config.clientTimeouts) },
    // Koa's handler answers every error itself (ctx.onerror), so its promise never rejects.
    (req, res) => void handle(req, res),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.listen.port, config.listen.host, () => resolve());
    });
  } catch (err) {
    await release();
    throw err;
  }
  return server;
}

/**
 * Stops accepting work, then waits for running Full Validations: a paid validation is finished and certified,
 * not cut off; past its deadline it would have failed anyway. Meanwhile every connection is closed as soon as
 * it is idle, so keep-alive clients do not hold the stop.
 */
async function drainAndClose(
  config: Config,
  core: Core,
  server: https.Server,
  extra: { redirect: { close(): Promise<void> } | null; metricsServer: { close(): Promise<void> } | null },
  release: () => Promise<void>,
): Promise<void> {
  const { log, fullValidations } = core;
  core.drain();
  log.info(
    { validations: fullValidations.inFlight, quick_scans: core.quickScans.inFlight },
    'shutting down: finishing running work',
  );
  let stopped = false;
  const closed = new Promise<void>((resolve) => server.close(() => resolve())).then(() => (stopped = true));
  await extra.redirect?.close();
  const giveUpAt = Date.now() + config.deadlines.fullMs + 5_000;
  while ((!stopped || fullValidations.inFlight > 0) && Date.now() < giveUpAt) {
    server.closeIdleConnections();
    await sleep(50);
  }
  server.closeAllConnections();
  await closed;
  await extra.metricsServer?.close();
  await release();
  log.info('stopped');
}

export async function startService(config: Config, opts: ServiceOptions): Promise<RunningService> {
  const log = opts.log ?? createLogger(config);
  const { payments } = opts;
  const core = await wireCore(config, payments, log);
  // The service owns what it was given: the shared state and the payments side close with it.
  const release = async () => {
    await core.shared.close();
    await payments.close();
  };
  const server = await listenHttps(config, buildApp(config, payments, core), release);
  const port = (server.address() as AddressInfo).port;
  const redirect =
    config.listen.httpPort === null
      ? null
      : await startRedirectServer(config.listen.host, config.listen.httpPort, config.baseUrl);
  const metricsServer =
    config.listen.metricsPort === null
      ? null
      : await startMetricsServer(core.metrics, config.listen.metricsHost, config.listen.metricsPort);
  log.info(
    {
      url: `https://localhost:${port}`,
      base_url: config.baseUrl,
      rules: core.ruleset.rules.length,
      ruleset: core.ruleset.version,
      metrics_port: metricsServer?.port ?? null,
      shared_state: core.shared.backend,
    },
    'service listening',
  );
  let closing: Promise<void> | null = null;
  return {
    url: `https://localhost:${port}`,
    port,
    httpPort: redirect?.port ?? null,
    metricsPort: metricsServer?.port ?? null,
    close: () => (closing ??= drainAndClose(config, core, server, { redirect, metricsServer }, release)),
  };
}
