// A Full Validation: reserve the payment token (before any DNS work), scan every rule, sign the certificate, and
// commit the token with it. If the validation does not complete (the domain has nothing to scan, the engine
// failed, or passed its deadline) the token is released, so the buyer can try again. Nothing is lost.
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { Ruleset } from '../engine/ruleset.ts';
import type { Report } from '../engine/types.ts';
import { canonicalBytes, canonicalJson } from '../lib/canonical-json.ts';
import { ScanDeadlineError } from '../engine/observe-and-judge.ts';
import { summarise } from '../engine/summary.ts';
import type { Logger } from '../lib/log.ts';
import type { PaymentGate, StoredCertificate, TokenRef } from '../payments/gate.ts';
import type { ServiceMetrics } from './metrics.ts';
import type { ProgressListener, Scanner } from './scanner.ts';
import type { ScanLane } from './scan-slots.ts';
import { certificateText, issueCertificate } from '../signing/certificate.ts';
import type { SigningKeySource } from '../signing/key-store.ts';
import type { Certificate } from '../signing/payload.ts';
import { scanError, scanResult, type ScanResult } from './scan-result.ts';
import type { TransparencyLog } from './transparency-log.ts';

const compress = promisify(gzip);

export class PaymentRequiredError extends Error {
  override name = 'PaymentRequiredError';
  constructor(
    message: string,
    /** Why: the ledger's refusal, or `in_progress` when another validation still holds the token. */
    readonly reason: 'unknown' | 'expired' | 'other_domain' | 'wrong_mode' | 'in_progress',
  ) {
    super(message);
  }
}

/** What a Full Validation returns as structuredContent (schemas/api/full-validation-result.json). */
export interface FullValidationResult {
  certificate: Certificate;
  /** Absent only for a certificate stored before the ledger kept reports (migration 003). */
  report?: Report;
}

export interface FullValidationOutcome {
  result: ScanResult;
  /** The certificate and its report, when one was issued or found (structuredContent on both surfaces). */
  document: FullValidationResult | null;
  /** True when the token had already paid for this domain and the stored certificate was returned. */
  replayed: boolean;
}

/** How a validation pays: the certificate is committed with the payment, or the payment is given back. */
export interface Payment {
  commit(certificate: StoredCertificate): Promise<void>;
  release(): Promise<void>;
}

/** What a validation paid by a held token came to (`runHeld`). */
export type HeldOutcome =
  | { kind: 'issued'; certificate: Certificate; body: string; report: Report }
  /** The scan ran but its report was not accepted: nothing issued, nothing spent. */
  | { kind: 'declined'; report: Report }
  /** The domain has nothing to scan (the preflight's answer). */
  | { kind: 'not_scanned'; text: string };

export interface FullValidationDeps {
  scanner: Scanner;
  ruleset: Ruleset;
  gate: PaymentGate;
  /** The key to sign with at the moment of signing (a rotation while the service runs takes effect at once). */
  signingKeys: SigningKeySource;
  baseUrl: string;
  /** How long a certificate stays valid after its observations (DVS_CERTIFICATE_LIFETIME). */
  lifetimeSeconds: number;
  log: Logger;
  metrics: ServiceMetrics;
  /** The transparency log each certificate is appended to; the answer then carries its inclusion proof. */
  transparency?: TransparencyLog;
  /** How long to wait for another request that holds the same token (ms), and how often to look. */
  waitForHolderMs: number;
  pollMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (startedNs: bigint) => Number(process.hrtime.bigint() - startedNs) / 1e9;

export class FullValidations {
  private running = 0;

  constructor(private readonly deps: FullValidationDeps) {}

  /** Validations running now; graceful shutdown waits for them. */
  get inFlight(): number {
    return this.running;
  }

  /**
   * The answer for a certificate whose stored body is `body`, the log's leaf. That body is the second content
   * item, the same bytes however often the token comes back; its inclusion proof against the log's current head,
   * which grows with every certificate, travels beside it: the third content item, and the certificate's `log`
   * member in structuredContent (what `dvs verify` checks offline).
   */
  private async answer(
    summary: string,
    certificate: Certificate,
    body: string,
  ): Promise<{ result: ScanResult; certificate: Certificate }> {
    const result = scanResult(summary, body);
    const proof = await this.deps.transparency?.inclusion(certificate.payload.id);
    if (!proof) return { result, certificate };
    result.content.push({ type: 'text', text: canonicalJson(proof) });
    return { result, certificate: { ...certificate, log: proof } };
  }

  private async fromStored(stored: StoredCertificate): Promise<FullValidationOutcome> {
    // The body is the canonical JSON this service committed with the token, the report beside it.
    const leaf = JSON.parse(stored.body) as Certificate;
    const summary = `Full Validation of ${stored.domain}: ${leaf.payload.verdict}, score ${leaf.payload.score}/100 (certificate ${stored.id}, issued earlier for this token)`;
    const { result, certificate } = await this.answer(summary, leaf, stored.body);
    const document = stored.report
      ? { certificate, report: JSON.parse(gunzipSync(stored.report).toString('utf8')) as Report }
      : { certificate };
    return { result, document, replayed: true };
  }

  async run(
    domain: string,
    token: TokenRef,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    lane: ScanLane = 'interactive',
  ): Promise<FullValidationOutcome> {
    // The token is looked at before any DNS work: an unknown, spent or expired one buys nothing.
    const waitUntil = Date.now() + this.deps.waitForHolderMs;
    for (;;) {
      const r = await this.deps.gate.reserve(token, domain);
      if (r.kind === 'refused') throw new PaymentRequiredError(r.message, r.reason);
      if (r.kind === 'redeemed') return this.fromStored(r.certificate);
      if (r.kind === 'reserved') {
        const payment: Payment = {
          commit: (stored) => this.deps.gate.commit(token, r.reservationId, stored),
          release: () => this.deps.gate.release(token, r.reservationId),
        };
        return this.validate(domain, payment, lane, signal, onProgress);
      }
      // Another request holds this token for this domain: its certificate will be ours too.
      if (Date.now() >= waitUntil) {
        throw new PaymentRequiredError(
          'this payment token is being used by a validation that is still running; retry when it has finished',
          'in_progress',
        );
      }
      await sleep(this.deps.pollMs ?? 100);
    }
  }

  private async validate(
    domain: string,
    payment: Payment,
    lane: ScanLane,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
  ): Promise<FullValidationOutcome> {
    const outcome = await this.issue(domain, payment, { lane, signal, onProgress, accept: () => true });
    if (outcome.kind === 'not_scanned') return { result: scanError(outcome.text), document: null, replayed: false };
    if (outcome.kind === 'declined') throw new Error('a validation accepting every report declined one');
    const { certificate, body, report } = outcome;
    const answer = await this.answer(summarise(report, this.deps.ruleset), certificate, body);
    return { result: answer.result, document: { certificate: answer.certificate, report }, replayed: false };
  }

  /**
   * A validation paid by a token its caller holds (a monitor's run, `payment` spends that token). A report the
   * caller does not `accept` (INCOMPLETE, to be tried again) is signed by nothing and spends nothing.
   */
  runHeld(domain: string, payment: Payment, accept: (report: Report) => boolean): Promise<HeldOutcome> {
    return this.issue(domain, payment, { lane: 'batch', accept });
  }

  private async issue(
    domain: string,
    payment: Payment,
    opts: { lane: ScanLane; signal?: AbortSignal; onProgress?: ProgressListener; accept: (report: Report) => boolean },
  ): Promise<HeldOutcome> {
    const { scanner, signingKeys, baseUrl, log, metrics } = this.deps;
    this.running++;
    let committed = false;
    const started = process.hrtime.bigint();
    try {
      // A domain with nothing to scan is answered, and the reservation released: the token stays unused.
      const preflight = await scanner.preflight(domain, 'full');
      if (!preflight.ok) {
        metrics.scanFinished('full', 'not_scanned', seconds(started));
        return { kind: 'not_scanned', text: preflight.text };
      }
      const { report, evidence } = await scanner
        .scan(domain, 'full', { signal: opts.signal, onProgress: opts.onProgress, preflight, lane: opts.lane })
        .catch((err: unknown) => {
          if (err instanceof ScanDeadlineError) metrics.scanFinished('full', 'deadline', seconds(started));
          throw err;
        });
      if (!opts.accept(report)) {
        metrics.scanFinished('full', report.verdict, seconds(started));
        return { kind: 'declined', report };
      }
      const certificate = issueCertificate({
        report,
        issuer: { baseUrl },
        key: await signingKeys.current(),
        validity: { issuedAt: new Date(), lifetimeSeconds: this.deps.lifetimeSeconds },
      });
      const body = certificateText(certificate);
      const expiresAt = Date.parse(certificate.payload.expires_at);
      // The evidence a relying party re-judges: the very bytes evidence_digest names, compressed for storage.
      // Compressed on libuv's threads: a report's 120 KB took 3 ms of the event loop, every other request's wait.
      const [storedEvidence, storedReport] = await Promise.all([
        compress(Buffer.from(evidence, 'utf8')),
        compress(canonicalBytes(report)),
      ]);
      await payment.commit({
        id: certificate.payload.id,
        domain,
        body,
        expiresAt,
        evidence: storedEvidence,
        report: storedReport,
      });
      committed = true;
      metrics.scanFinished('full', report.verdict, seconds(started));
      log.info({ domain, certificate: certificate.payload.id, verdict: report.verdict }, 'full validation certified');
      return { kind: 'issued', certificate, body, report };
    } finally {
      this.running--;
      if (!committed) {
        await payment
          .release()
          .catch((err: Error) =>
            log.warn({ domain, err: err.message }, 'could not release a payment reservation; its lease will'),
          );
      }
    }
  }
}
