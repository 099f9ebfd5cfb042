// A certificate for a person: what it says, where it stands, how to check it yourself, the DNS record that
// anchors it and the badge that shows it.
import { escapeHtml } from '../../lib/html.ts';
import type { CertificateStatus, CertificateView } from '../../service/certificate-view.ts';
import { renderPage } from './page-layout.ts';
import { ruleDocsPath } from './report-page.ts';
import { certificateReportPath } from './certificate-report-page.ts';

const VERDICT_WORDS = { CERTIFIED: 'Certified', NOT_CONFORMANT: 'Not conformant', INCOMPLETE: 'Incomplete' };
const STATE_WORDS = { valid: 'Valid', expired: 'Expired', superseded: 'Superseded', revoked: 'Revoked' };

function statusHtml(s: CertificateStatus): string {
  const when = s.at ? ` since <time datetime="${escapeHtml(s.at)}">${escapeHtml(s.at)}</time>` : '';
  const why = s.reason ? `: ${escapeHtml(s.reason)}` : '';
  const report = s.report ? ` (<a href="${escapeHtml(s.report)}">the run that found it</a>)` : '';
  return `<strong>${STATE_WORDS[s.state]}</strong>${when}${why}${report}`;
}

function findingsHtml(v: CertificateView): string {
  const bad = v.certificate.payload.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
  if (!bad.length) return '<p>No rule failed and every rule could be evaluated.</p>';
  const items = bad.map(
    (r) =>
      `<li><a href="${escapeHtml(ruleDocsPath(r.id))}"><code>${escapeHtml(r.id)}</code></a> (${escapeHtml(r.level)}): ${r.outcome === 'fail' ? 'failed' : 'not evaluated'}</li>`,
  );
  return `<p>${bad.length} of ${v.certificate.payload.results.length} rules failed or could not be evaluated:</p>
<ul>
${items.join('\n')}
</ul>`;
}

function verifyHtml(v: CertificateView, baseUrl: string): string {
  const p = v.certificate.payload;
  const fetchJson = `curl -sS -H 'Accept: application/json' ${baseUrl}/api/certificates/${v.id} > certificate.json`;
  const verify = `dvs verify certificate.json --jwks ${p.issuer.jwks_url} --dns`;
  return `<section aria-labelledby="verify">
<h2 id="verify">Check it yourself</h2>
<p>The certificate is the payload below and a detached JWS (Ed25519, key <code>${escapeHtml(p.issuer.kid)}</code>) over the payload's RFC 8785 canonical JSON. Fetch it as JSON, byte for byte as issued, and verify it against the issuer's published keys:</p>
<pre><code>${escapeHtml(fetchJson)}
${escapeHtml(verify)}</code></pre>
<p>Any JOSE library can verify it too: put the base64url of the canonical payload back between the two dots of the JWS and verify that against <a href="${escapeHtml(p.issuer.jwks_url)}">the issuer's key set</a>. The <a href="/docs/api#certificates">API guide</a> shows it step by step.</p>
</section>`;
}

function anchorHtml(v: CertificateView): string {
  const a = v.certificate.payload.anchor;
  if (!v.anchorLine) return '';
  return `<section aria-labelledby="anchor">
<h2 id="anchor">DNS anchor</h2>
<p>The owner of ${escapeHtml(v.domain)} shows they accept this certificate by publishing this TXT record; <code>dvs verify --dns</code> looks for it.</p>
<dl class="facts">
<dt>Name</dt><dd><code>${escapeHtml(a.name)}</code></dd>
<dt>Type</dt><dd><code>${escapeHtml(a.type)}</code></dd>
<dt>Value</dt><dd><code>${escapeHtml(a.value)}</code></dd>
</dl>
<p>As a zone file line:</p>
<pre><code>${escapeHtml(v.anchorLine)}</code></pre>
</section>`;
}

function badgeHtml(v: CertificateView, baseUrl: string): string {
  const src = `${baseUrl}/badge/${v.domain}.svg`;
  const markdown = `[![agent readiness](${src})](${baseUrl}/certificates/${v.id})`;
  return `<section aria-labelledby="badge">
<h2 id="badge">Badge</h2>
<p><img src="/badge/${escapeHtml(v.domain)}.svg" alt="agent readiness badge of ${escapeHtml(v.domain)}"> shows the verdict of the domain's current certificate, or “not validated” when it has none. For a README:</p>
<pre><code>${escapeHtml(markdown)}</code></pre>
</section>`;
}

export function certificatePage(v: CertificateView, baseUrl: string): string {
  const p = v.certificate.payload;
  return renderPage({
    title: `Certificate ${v.id} for ${v.domain}`,
    description: `Full Validation certificate of ${v.domain}: ${VERDICT_WORDS[p.verdict]}, score ${p.score}/100.`,
    head: `<link rel="alternate" type="application/json" href="/api/certificates/${escapeHtml(v.id)}">\n`,
    body: `<h1>Certificate for ${escapeHtml(v.domain)}</h1>
<p><span class="verdict verdict-${p.verdict}">${VERDICT_WORDS[p.verdict]}</span> · score <strong>${p.score}</strong>/100</p>
<dl class="facts">
<dt>Status</dt><dd>${statusHtml(v.status)}</dd>
<dt>Id</dt><dd><code>${escapeHtml(v.id)}</code></dd>
<dt>Issued</dt><dd><time datetime="${escapeHtml(v.issuedAt)}">${escapeHtml(v.issuedAt)}</time></dd>
<dt>Expires</dt><dd>${v.expiresAt ? `<time datetime="${escapeHtml(v.expiresAt)}">${escapeHtml(v.expiresAt)}</time>` : 'no expiry is recorded in this certificate'}</dd>
<dt>Observed</dt><dd><time datetime="${escapeHtml(p.observed_at)}">${escapeHtml(p.observed_at)}</time></dd>
<dt>Ruleset</dt><dd>${escapeHtml(p.ruleset.version)} <code>${escapeHtml(p.ruleset.digest.slice(0, 12))}</code></dd>
<dt>Evidence digest</dt><dd><code>${escapeHtml(p.evidence_digest)}</code></dd>
<dt>Issuer</dt><dd><a href="${escapeHtml(p.issuer.base_url)}">${escapeHtml(p.issuer.base_url)}</a></dd>
</dl>
<section aria-labelledby="results">
<h2 id="results">Results</h2>
${findingsHtml(v)}
<p><a href="${escapeHtml(certificateReportPath(v.id))}">The full report</a>: what each check saw, why it matters and how to fix it.</p>
</section>
${verifyHtml(v, baseUrl)}
${anchorHtml(v)}
${badgeHtml(v, baseUrl)}
<section aria-labelledby="json">
<h2 id="json">The certificate</h2>
<details>
<summary>Payload and JWS as JSON</summary>
<pre><code>${escapeHtml(JSON.stringify(v.certificate, null, 2))}</code></pre>
</details>
</section>`,
  });
}
