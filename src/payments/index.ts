// Payments as the service sees them: the gate full validations go through, the ledger behind it, and the
// processor that sells tokens (the API mounts its checkout and certificate routes over them).
import { ConfigError, type Config } from '../lib/config.ts';
import type { Accounts } from './accounts.ts';
import type { Logger } from '../lib/log.ts';
import type { CertificateRegistry, PaymentGate } from './gate.ts';
import type { Ledger, TokenHolder } from './ledger.ts';
import type { CertificateHistory } from './history-store.ts';
import type { LogStore } from './store.ts';
import { ledgerPruner, startLedgerRetention, type Pruned } from './ledger-retention.ts';
import { openLedger } from './open-ledger.ts';
import { embeddedProcessor, type PaymentProcessor } from './processor.ts';

export interface Payments {
  gate: PaymentGate;
  ledger: Ledger;
  /** The certificates the ledger holds, with their status and evidence. */
  certificates: CertificateRegistry;
  /** The certificates of a domain over time. */
  history: CertificateHistory;
  /** The certificate transparency log in the ledger database. */
  log: LogStore;
  processor: PaymentProcessor;
  /** The accounts of the batch API, in the ledger database. */
  accounts: Accounts;
  /** Tokens held for monitors' later runs. */
  tokenHolder: TokenHolder;
  /**
   * Prunes what the ledger stops keeping (ledger-retention.ts). On PostgreSQL the job engine's scheduler calls
   * it, on one instance at a time; the embedded ledger runs it on a timer of its own and this is null.
   */
  prune: (() => Promise<Pruned>) | null;
  /** Resolves when the ledger answers (the service's readiness check). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded ledger's timer. A batch is 500 rows (about 4 MB of evidence at the 8.5 KiB a Full Validation
 * keeps); each batch is idempotent and, on PostgreSQL, skips rows another run holds.
 */
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 500;

async function chooseProcessor(config: Config, ledger: Ledger, log: Logger): Promise<PaymentProcessor> {
  const p = config.payments;
  if (!p.stripeSecretKey) return embeddedProcessor(ledger, p.testTokenCap);
  // Without the webhook secret no payment could ever be confirmed: refuse to start rather than sell nothing.
  if (!p.stripeWebhookSecret)
    throw new ConfigError('DVS_STRIPE_WEBHOOK_SECRET is required when DVS_STRIPE_SECRET_KEY is set');
  // Stripe's SDK is imported only by a service that sells through it.
  const { stripeProcessor } = await import('./stripe-processor.ts');
  return stripeProcessor(
    {
      secretKey: p.stripeSecretKey,
      webhookSecret: p.stripeWebhookSecret,
      apiBase: p.stripeApiBase,
      priceCents: p.priceCents,
      currency: p.currency,
      baseUrl: config.baseUrl,
    },
    ledger,
    log,
  );
}

export async function openPayments(config: Config, log: Logger): Promise<Payments> {
  const ledger = await openLedger(config);
  let processor: PaymentProcessor;
  try {
    processor = await chooseProcessor(config, ledger, log);
  } catch (err) {
    await ledger.close();
    throw err;
  }
  log.info({ ledger: ledger.backend, processor: processor.name, mode: processor.mode }, 'payments ready');
  const retention = { batch: PRUNE_BATCH, reportRetentionSeconds: config.payments.reportRetentionSeconds };
  // Shared PostgreSQL: the job engine every instance opens schedules the pruning (src/service/ledger-pruning.ts).
  const shared = config.databaseUrl !== null;
  const pruning = shared
    ? ledgerPruner(ledger, retention)
    : startLedgerRetention(ledger, { ...retention, everyMs: PRUNE_EVERY_MS, log });
  return {
    gate: ledger,
    history: ledger,
    ledger,
    certificates: ledger,
    log: ledger.log,
    processor,
    accounts: ledger.accounts,
    tokenHolder: ledger,
    prune: shared ? pruning.runOnce : null,
    ready: () => ledger.ready(),
    async close() {
      await pruning.stop();
      await ledger.close();
    },
  };
}
