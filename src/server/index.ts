// Starting and stopping the whole service: keys, ledger, scanner, the Koa app on HTTPS, the optional
// plain-HTTP redirect and metrics listeners, and graceful shutdown that lets running validations finish.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Config } from '../lib/config.ts';
import { loadRunRuleset } from '../engine/compiled-ruleset.ts';
import { providers } from '../../plugins/index.ts';
import { createApp } from '../api/app.ts';
import { callerIdentity } from '../api/caller-identity.ts';
import { documentRoutes } from '../api/document-routes.ts';
import { healthRoutes } from '../api/health-routes.ts';
import { logRoutes } from '../api/log-routes.ts';
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
import type { LogStore } from '../payments/store.ts';
import { createScanner } from '../service/scanner.ts';
import { CallerIdentities, netDirectoryFetcher } from '../service/caller-identity.ts';
import { createNet } from '../net/index.ts';
import { AgentDirectories } from '../signing/agent-directories.ts';
import { Certificates } from '../service/certificates.ts';
import { LedgerCertificates } from '../service/certificate-view.ts';
import { createScanSlots } from '../service/scan-slots.ts';
import { FullValidations } from '../service/full-validations.ts';
import { QuickScanReports } from '../service/report-view.ts';
import { QuickScans } from '../service/quick-scans.ts';
import { TransparencyLog } from '../service/transparency-log.ts';
import { openSharedState } from '../service/shared-state.ts';
import { SigningKeyStore } from '../signing/key-store.ts';
import { loadAgentKey } from '../signing/keys.ts';
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
  /** The certificates' status and evidence (the ledger). */
  certificates: CertificateRegistry;
  /** The certificate transparency log in the ledger database; /log/* is served when there is one. */
  log?: LogStore;
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

/** Web Bot Auth on incoming requests, unless configured off. */
function callerIdentities(config: Config, metrics: PromMetrics): CallerIdentities | null {
  if (!config.callerIdentity.enabled) return null;
  return new CallerIdentities({
    // One guarded network for every directory fetch: the address policy, CA and limits of the probes.
    directories: new AgentDirectories({ fetch: netDirectoryFetcher(createNet(config)) }),
    waitMs: config.callerIdentity.directoryWaitMs,
    metrics,
  });
}

export async function startService(config: Config, opts: ServiceOptions): Promise<RunningService> {
  const log = opts.log ?? createLogger(config);
  privateDir(config.dataDir);
  // The checked ruleset, from an artifact in the cache dir that matches the lock: the service starts without
  // re-running every schema and example (dvs rules check and the tests do that).
  const ruleset = loadRunRuleset(config.cacheDir);
  // Re-read at each signature when `dvs keys rotate` replaced the key file: a rotation needs no restart.
  const signingKeys = await SigningKeyStore.open(config.dataDir, log);
  const agentKey = config.net.agentSigning ? await loadAgentKey(config.dataDir) : null;
  const { payments } = opts;
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
    agentRateLimiter: shared.agentRateLimiter,
    metrics,
  });
  const transparency = payments.log ? new TransparencyLog(payments.log, signingKeys) : undefined;
  const fullValidations = new FullValidations({
    scanner,
    ruleset,
    gate: payments.gate,
    signingKeys,
    transparency,
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

  const lifecycle = new Certificates(payments.certificates);
  const certificates = new LedgerCertificates(lifecycle);

  const readiness = {
    async problem(): Promise<string | null> {
      if (draining) return 'shutting down';
      if (ruleset.rules.length === 0) return 'no rules loaded';
      try {
        await payments.ready?.();
      } catch (err) {
        // The driver's message names hosts and users: it goes to the log, not to whoever asks /readyz.
        log.warn({ err: (err as Error).message }, 'readiness: the payment ledger does not answer');
        return 'the payment ledger does not answer';
      }
      return null;
    },
  };
  const identities = callerIdentities(config, metrics);
  const app = createApp({
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    log,
    ...(identities ? { identify: callerIdentity(identities, config.baseUrl, log) } : {}),
    wrap: [metrics.requestCounter(), signResponses(signingKeys)],
    routers: [
      healthRoutes(readiness),
      scanRoutes(ops),
      mcpRoutes(ops, config.baseUrl, log),
      documentRoutes({ config, signingKeys, agentKey }),
      pageRoutes({
        ops,
        reports: new QuickScanReports(quickScans, ruleset),
        certificates,
        baseUrl: config.baseUrl,
        quickScanTtlSeconds: config.quickScan.cacheTtlSeconds,
      }),
      ...paymentRoutes(payments.processor, { lifecycle, reader: certificates }, config, log, shared.rateLimiter),
      ...(transparency ? [logRoutes(transparency)] : []),
    ],
  });

  const tlsMaterial = config.tls.certFile
    ? { cert: readFileSync(config.tls.certFile, 'utf8'), key: readFileSync(config.tls.keyFile!, 'utf8') }
    : await selfSignedForLocalhost(config.dataDir);
  const server = https.createServer(
    { ...tlsMaterial, minVersion: 'TLSv1.2', ...clientTimeoutOptions(config.clientTimeouts) },
    app.callback(),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.listen.port, config.listen.host, () => resolve());
    });
  } catch (err) {
    // The service owns what it was given: a port it cannot take leaves nothing open behind it.
    await shared.close();
    await payments.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const redirect =
    config.listen.httpPort === null
      ? null
      : await startRedirectServer(config.listen.host, config.listen.httpPort, config.baseUrl);
  const metricsServer =
    config.listen.metricsPort === null
      ? null
      : await startMetricsServer(metrics, config.listen.metricsHost, config.listen.metricsPort);
  log.info(
    {
      url: `https://localhost:${port}`,
      base_url: config.baseUrl,
      rules: ruleset.rules.length,
      ruleset: ruleset.version,
      metrics_port: metricsServer?.port ?? null,
      shared_state: shared.backend,
    },
    'service listening',
  );

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      log.info(
        { validations: fullValidations.inFlight, quick_scans: quickScans.inFlight },
        'shutting down: finishing running work',
      );
      let stopped = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve())).then(() => (stopped = true));
      await redirect?.close();
      // A paid validation is finished and certified, not cut off; past its deadline it would have failed anyway.
      // Meanwhile every connection is closed as soon as it is idle, so keep-alive clients do not hold the stop.
      const giveUpAt = Date.now() + config.deadlines.fullMs + 5_000;
      while ((!stopped || fullValidations.inFlight > 0) && Date.now() < giveUpAt) {
        server.closeIdleConnections();
        await sleep(50);
      }
      server.closeAllConnections();
      await closed;
      await metricsServer?.close();
      await shared.close();
      await payments.close();
      log.info('stopped');
    })());
  return {
    url: `https://localhost:${port}`,
    port,
    httpPort: redirect?.port ?? null,
    metricsPort: metricsServer?.port ?? null,
    close,
  };
}
