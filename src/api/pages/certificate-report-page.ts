// A Full Validation's report page: the same report as a Quick Scan's (gauges, table, findings with what the site
// sent), from the report the ledger kept beside the certificate, with the certificate it belongs to and the
// agent-readiness level its results reach. When the ledger no longer keeps the report, a page that says so.
import { readinessLine } from '../../engine/summary.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { CertificateReport } from '../../service/certificate-report.ts';
import type { CertificateView } from '../../service/certificate-view.ts';
import { renderPage } from './page-layout.ts';
import { reportParts } from './report-page.ts';

const VERDICT_WORDS = { CERTIFIED: 'Certified', NOT_CONFORMANT: 'Not conformant', INCOMPLETE: 'Incomplete' };

/** Where a certificate's report page is. */
export const certificateReportPath = (id: string) => `/certificates/${encodeURIComponent(id)}/report`;

const certificateLink = (c: CertificateView) =>
  `<a href="/certificates/${escapeHtml(encodeURIComponent(c.id))}"><code>${escapeHtml(c.id)}</code></a>`;

function aboutHtml(c: CertificateView, evidence: boolean): string {
  const readiness = c.readiness ? `<dt>Agent readiness</dt><dd>${escapeHtml(readinessLine(c.readiness))}</dd>` : '';
  const seen = evidence
    ? ''
    : '<p class="notice">The evidence this validation was judged on is kept only while its certificate is valid, and is no longer kept: each finding shows the facts its check read, not the lines the site sent.</p>';
  return `<dl class="facts">
<dt>Certificate</dt><dd>${certificateLink(c)} (${escapeHtml(c.status.state)})</dd>
<dt>Issued</dt><dd><time datetime="${escapeHtml(c.issuedAt)}">${escapeHtml(c.issuedAt)}</time></dd>
${readiness}
</dl>
${seen}`;
}

export function certificateReportPage(r: Extract<CertificateReport, { kind: 'report' }>): string {
  const { view: v, certificate: c } = r;
  return renderPage({
    title: `Full Validation of ${v.domain}`,
    description: `Full Validation of ${v.domain} (certificate ${c.id}): ${VERDICT_WORDS[v.verdict]}, score ${v.score}/100.`,
    body: `<h1>Full Validation of ${escapeHtml(v.domain)}</h1>
${reportParts(v, '', aboutHtml(c, r.evidence))}
<p><a href="/report/${escapeHtml(encodeURIComponent(v.domain))}">The domain's latest Quick Scan and its history of Full Validations</a></p>`,
  });
}

/** The certificate stands, its report is no longer kept (DVS_REPORT_RETENTION) or was never stored. */
export function reportPrunedPage(c: CertificateView): string {
  return renderPage({
    title: `No report kept for certificate ${c.id}`,
    body: `<h1>No report kept for certificate ${escapeHtml(c.id)}</h1>
<p class="notice" role="status">The report of this Full Validation of ${escapeHtml(c.domain)} is no longer kept: this service keeps reports for a configured time (<a href="/docs/operations#keeping-the-database-small">retention</a>), and certificates for good.</p>
<p>The certificate ${certificateLink(c)} still lists every rule's outcome, and can be verified.</p>`,
  });
}
