// Starting and stopping the whole service: keys, ledger, scanner, the Koa app on HTTPS, the optional
// plain-HTTP redirect and metrics listeners, and graceful shutdown that lets running validations finish.
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import https from 'node:https';
import type Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { Config } from '../lib/config.ts';
import { loadRunRuleset } from '../catalogue/compiled-ruleset.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { providers } from '../../plugins/index.ts';
import { createApp } from '../api/http/app.ts';
import { callerIdentity } from '../api/http/caller-identity.ts';
import { documentRoutes } from '../api/documents/document-routes.ts';
import { healthRoutes } from '../api/rest/health-routes.ts';
import { logRoutes } from '../api/rest/log-routes.ts';
import { historyRoutes } from '../api/rest/history-routes.ts';
import { DomainHistory } from '../service/domain-history.ts';
import type { CertificateHistory } from '../payments/history-store.ts';
import { mcpRoutes } from '../api/mcp/mcp-routes.ts';
import { pageRoutes } from '../api/pages/page-routes.ts';
import { paymentRoutes } from '../api/checkout/payment-routes.ts';
import { ResponseSigner, signResponses } from '../api/http/response-signing.ts';
import { ScanOperations } from '../api/operations/scan-operations.ts';
import { scanRoutes } from '../api/rest/scan-routes.ts';
import { createLogger, type AppLogger } from '../lib/log.ts';
import { privateDir } from '../lib/private-files.ts';
import type { Accounts } from '../payments/accounts.ts';
import type { TokenHolder } from '../payments/ledger.ts';
import type { CertificateRegistry, PaymentGate } from '../payments/gate.ts';
import type { PaymentProcessor } from '../payments/processor.ts';
import type { LogStore } from '../payments/store.ts';
import { createScanner } from '../service/scanner.ts';
import { CallerIdentities, netDirectories, type CallerMetrics } from '../service/caller-identity.ts';
import { Certificates } from '../service/certificates.ts';
import { LedgerCertificates } from '../service/certificate-view.ts';
import { CertificateReports } from '../service/certificate-report.ts';
import { createScanSlots, type ScanSlots } from '../service/scan-slots.ts';
import { PACE_INTERVAL_MS, startBatchPace } from '../service/batch-pace.ts';
import { batchRoutes } from '../api/rest/batch-routes.ts';
import { webhookRoutes } from '../api/rest/webhook-routes.ts';
import { monitorRoutes } from '../api/rest/monitor-routes.ts';
import { wireBatches, type BatchWiring } from './batch-wiring.ts';
import { FullValidations } from '../service/full-validations.ts';
import { QuickScanReports } from '../service/report-view.ts';
import type { ServiceMetrics } from '../service/metrics.ts';
import { QuickScans } from '../service/quick-scans.ts';
import { TransparencyLog } from '../service/transparency-log.ts';
import { openSharedState, type SharedState } from '../service/shared-state.ts';
import { SigningKeyStore } from '../signing/key-store.ts';
import { loadAgentKey, type SigningKey } from '../signing/keys.ts';
import { clientTimeoutOptions } from './client-timeouts.ts';
import { guardConnections } from './connection-guard.ts';
import { startRedirectServer } from './http-redirect.ts';
import type { PromMetrics } from './metrics.ts';
import { selfSignedForLocalhost } from './localhost-certificate.ts';

/** What the payments side hands the server (src/payments/index.ts `openPayments`). */
export interface PaymentsHandle {
  gate: PaymentGate;
  close(): Promise<void>;
  /** Sells tokens; the checkout is mounted when there is one. */
  processor?: PaymentProcessor;
  /** The certificates' status and evidence (the ledger). */
  certificates: CertificateRegistry;
  /** A domain's certificates over time; /api/domains/{domain}/history and the report page's history use it. */
  history?: CertificateHistory;
  /** The certificate transparency log in the ledger database; /log/* is served when there is one. */
  log?: LogStore;
  /** Resolves when the ledger answers; readiness uses it when offered. */
  ready?(): Promise<void>;
  /** The accounts of the batch API (in the ledger); the batch routes are served when there are. */
  accounts?: Accounts;
  /** Tokens held for monitors (the ledger); the monitor routes are served when there are, beside the batch ones. */
  tokenHolder?: TokenHolder;
  /** The ledger's pruning, for the job engine's scheduler to run (null: the ledger prunes on its own timer). */
  prune?: (() => Promise<{ evidence: number; reports: number }>) | null;
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

/**
 * The metrics of a service without a metrics listener: nothing could read a count, so nothing is counted, and
 * prom-client (30 ms of a start, an event-loop monitor while running) is never loaded.
 */
const UNCOUNTED: ServiceMetrics & CallerMetrics = {
  scanFinished: () => undefined,
  cacheHit: () => undefined,
  callerSignature: () => undefined,
};

/** Web Bot Auth on incoming requests, unless configured off. */
function callerIdentities(config: Config, metrics: CallerMetrics): CallerIdentities | null {
  if (!config.callerIdentity.enabled) return null;
  return new CallerIdentities({
    directories: netDirectories(config),
    waitMs: config.callerIdentity.directoryWaitMs,
    metrics,
  });
}

/** Everything below the HTTP layer, wired from the configuration; `drain` stops new scans being accepted. */
interface Core {
  log: AppLogger;
  ruleset: Ruleset;
  /** Re-read at each signature when `dvs keys rotate` replaced the key file: a rotation needs no restart. */
  signingKeys: SigningKeyStore;
  agentKey: SigningKey | null;
  metrics: ServiceMetrics & CallerMetrics;
  /** What the metrics listener exports; null without one. */
  prometheus: PromMetrics | null;
  shared: SharedState;
  quickScans: QuickScans;
  fullValidations: FullValidations;
  ops: ScanOperations;
  lifecycle: Certificates;
  certificates: LedgerCertificates;
  transparency: TransparencyLog | undefined;
  /** The batch API and this instance's batch workers, when the payments side keeps accounts. */
  batches: BatchWiring | null;
  /** Sets the batch lane's width from the event loop's lateness; null: DVS_BATCH_CONCURRENCY, always. */
  pace: { stop(): void } | null;
  draining(): boolean;
  drain(): void;
}

type ScanServices = Pick<Core, 'quickScans' | 'fullValidations' | 'transparency'> & { slots: ScanSlots };

/** Batch items and monitor runs share the batch lane, whose width follows the event loop (batch-pace.ts). */
function paceBatchLane(config: Config, slots: ScanSlots): Core['pace'] {
  const { concurrency, paceDelayMs } = config.batches;
  if (concurrency === 0 || paceDelayMs === 0) return null;
  return startBatchPace({ max: concurrency, targetDelayMs: paceDelayMs, intervalMs: PACE_INTERVAL_MS }, slots);
}

function scanServices(
  config: Config,
  payments: PaymentsHandle,
  core: Pick<Core, 'log' | 'ruleset' | 'signingKeys' | 'agentKey' | 'metrics' | 'shared'>,
): ScanServices {
  const { log, ruleset, signingKeys, agentKey, metrics, shared } = core;
  const slots = createScanSlots({ ...config.scans, batchLimit: config.batches.concurrency });
  const scanner = createScanner({ config, ruleset, providers, log, agentKey, slots });
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
  return { quickScans, fullValidations, transparency, slots };
}

async function wireCore(config: Config, payments: PaymentsHandle, log: AppLogger): Promise<Core> {
  privateDir(config.dataDir);
  // The checked ruleset, from an artifact in the cache dir that matches the lock: the service starts without
  // re-running every schema and example (dvs rules check and the tests do that).
  const ruleset = loadRunRuleset(config.cacheDir);
  const signingKeys = await SigningKeyStore.open(config.dataDir, log);
  const agentKey = config.net.agentSigning ? await loadAgentKey(config.dataDir) : null;
  const prometheus = config.listen.metricsPort === null ? null : new (await import('./metrics.ts')).PromMetrics();
  const metrics = prometheus ?? UNCOUNTED;
  const shared = openSharedState(config, log);
  const services = scanServices(config, payments, { log, ruleset, signingKeys, agentKey, metrics, shared });
  let draining = false;
  const ops = new ScanOperations({
    quickScans: services.quickScans,
    fullValidations: services.fullValidations,
    extraSuffixes: config.extraSuffixes,
    accepting: () => !draining,
  });
  const lifecycle = new Certificates(payments.certificates);
  const batches = payments.accounts
    ? wireBatches(config, {
        log,
        accounts: payments.accounts,
        ...(payments.tokenHolder ? { tokenHolder: payments.tokenHolder } : {}),
        gate: payments.gate,
        prune: payments.prune ?? null,
        quickScans: services.quickScans,
        fullValidations: services.fullValidations,
        slots: services.slots,
        politeness: shared.politeness,
        rulesetVersion: ruleset.version,
      })
    : null;
  return {
    log,
    ruleset,
    signingKeys,
    agentKey,
    metrics,
    prometheus,
    shared,
    ...services,
    batches,
    // Only an instance that can take batch work keeps its loop sampled.
    pace: batches ? paceBatchLane(config, services.slots) : null,
    ops,
    lifecycle,
    certificates: new LedgerCertificates(lifecycle),
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

function buildApp(config: Config, payments: PaymentsHandle, core: Core, signer: ResponseSigner): Koa {
  const { log, ops, certificates, transparency } = core;
  const identities = callerIdentities(config, core.metrics);
  const history = payments.history ? new DomainHistory(payments.history) : null;
  return createApp({
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    log,
    ...(identities ? { identify: callerIdentity(identities, config.baseUrl, log) } : {}),
    wrap: [...(core.prometheus ? [core.prometheus.requestCounter()] : []), signResponses(signer)],
    // Each router a request passes costs a host and path match: the busiest routes come first.
    routers: [
      scanRoutes(ops),
      healthRoutes(readiness(core, payments)),
      mcpRoutes(ops, { baseUrl: config.baseUrl, log, allowedOrigins: config.mcpAllowedOrigins }),
      documentRoutes({ config, signingKeys: core.signingKeys, agentKey: core.agentKey }),
      pageRoutes({
        ops,
        reports: new QuickScanReports(core.quickScans, core.ruleset),
        certificates,
        ...(history ? { history } : {}),
        baseUrl: config.baseUrl,
        quickScanTtlSeconds: config.quickScan.cacheTtlSeconds,
      }),
      ...paymentRoutes(
        payments.processor,
        {
          lifecycle: core.lifecycle,
          reader: certificates,
          reports: new CertificateReports({
            reader: certificates,
            gate: payments.gate,
            lifecycle: core.lifecycle,
            ruleset: core.ruleset,
          }),
        },
        config,
        log,
        core.shared.rateLimiter,
      ),
      ...(transparency ? [logRoutes(transparency)] : []),
      ...(history ? [historyRoutes(history, (d) => ops.domain(d))] : []),
      ...(core.batches ? batchSideRoutes(core.batches) : []),
    ],
  });
}

/** The routes of accounts with an API key: batches, webhooks and, with a ledger that holds tokens, monitors. */
function batchSideRoutes(wiring: BatchWiring) {
  const authenticate = (authorization: string) => wiring.ops.account(authorization);
  return [
    batchRoutes(wiring.ops),
    webhookRoutes(wiring.webhookOps, authenticate),
    ...(wiring.monitorOps ? [monitorRoutes(wiring.monitorOps, authenticate)] : []),
  ];
}

/** What answers on the HTTPS listener: the Koa app, every request through its one middleware stack. */
function httpsHandler(config: Config, payments: PaymentsHandle, core: Core): RequestListener {
  const handle = buildApp(config, payments, core, new ResponseSigner(core.signingKeys)).callback();
  // Koa's handler answers every error itself (ctx.onerror), so its promise never rejects.
  return (req, res) => void handle(req, res);
}

/** The HTTPS listener, bound; on failure it closes what the service was given, so nothing stays open. */
async function listenHttps(
  config: Config,
  handler: RequestListener,
  release: () => Promise<void>,
): Promise<https.Server> {
  const tlsMaterial = config.tls.certFile
    ? { cert: readFileSync(config.tls.certFile, 'utf8'), key: readFileSync(config.tls.keyFile!, 'utf8') }
    : await selfSignedForLocalhost(config.dataDir);
  // A client may half-close once its requests are written, and still wants the answers. By default Node ends
  // the service's side on that FIN, at the socket (an https server's sockets are not half-open) and again in its
  // HTTP layer, so an answer not yet written, such as one the connection guard holds behind a large answer, was
  // never sent. Half-open, Node's HTTP layer closes the connection after the last answer instead
  // (`httpAllowHalfOpen` is its switch for that: undocumented, and what Node's own tests set).
  const server = https.createServer(
    {
      ...tlsMaterial,
      minVersion: 'TLSv1.2',
      ...clientTimeoutOptions(config.clientTimeouts),
      allowHalfOpen: true,
    },
    guardConnections(handler, config.connections),
  );
  (server as https.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
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
    core.pace?.stop();
    await core.batches?.close();
    core.signingKeys.close();
    await core.shared.close();
    await payments.close();
  };
  const server = await listenHttps(config, httpsHandler(config, payments, core), release);
  const port = (server.address() as AddressInfo).port;
  // After the listener: opening the queue (PGlite embedded) never delays readiness.
  core.batches?.startIfPending();
  const redirect =
    config.listen.httpPort === null
      ? null
      : await startRedirectServer(config.listen.host, config.listen.httpPort, config.baseUrl);
  const { prometheus } = core;
  const { metricsHost, metricsPort } = config.listen;
  const metricsServer =
    prometheus === null || metricsPort === null
      ? null
      : await import('./metrics.ts').then((m) => m.startMetricsServer(prometheus, metricsHost, metricsPort));
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
