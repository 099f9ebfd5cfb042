// A Full Validation's report as a person reads it: the report the ledger stored beside the certificate, made into
// the same read model as a Quick Scan's, with what the site sent while the certificate's evidence is still kept.
// A report may go before its certificate: the ledger drops reports after DVS_REPORT_RETENTION
// (src/payments/ledger-retention.ts), and a certificate issued before reports were stored has none; the page then
// says so.
import { gunzipSync } from 'node:zlib';
import type { Observations, Report } from '../engine/types.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { PaymentGate } from '../payments/gate.ts';
import type { CertificateReader, CertificateView } from './certificate-view.ts';
import type { Certificates } from './certificates.ts';
import { excerptsOf } from './evidence-excerpts.ts';
import { reportView, type ReportView } from './report-view.ts';

export type CertificateReport =
  /** `evidence` says whether the findings show what the site sent (the evidence is kept while the certificate is). */
  | { kind: 'report'; certificate: CertificateView; view: ReportView; evidence: boolean }
  /** The certificate stands in the ledger, its report no longer does (or never did). */
  | { kind: 'pruned'; certificate: CertificateView };

export class CertificateReports {
  constructor(
    private readonly deps: {
      reader: Pick<CertificateReader, 'byId'>;
      gate: Pick<PaymentGate, 'certificate'>;
      lifecycle: Pick<Certificates, 'evidence'>;
      ruleset: Pick<Ruleset, 'byId' | 'rules'>;
    },
  ) {}

  /** The report of the certificate with this id; null when this service issued none with it. */
  async byId(id: string): Promise<CertificateReport | null> {
    const [certificate, stored] = await Promise.all([this.deps.reader.byId(id), this.deps.gate.certificate(id)]);
    if (!certificate || !stored) return null;
    if (!stored.report) return { kind: 'pruned', certificate };
    const report = JSON.parse(gunzipSync(stored.report).toString('utf8')) as Report;
    const evidence = await this.deps.lifecycle.evidence(id);
    if (evidence?.kind !== 'found')
      return { kind: 'report', certificate, view: reportView(report, this.deps.ruleset), evidence: false };
    const observations = JSON.parse(evidence.bytes.toString('utf8')) as Observations;
    const excerpts = excerptsOf(report, observations, this.deps.ruleset);
    return { kind: 'report', certificate, view: reportView(report, this.deps.ruleset, excerpts), evidence: true };
  }
}
