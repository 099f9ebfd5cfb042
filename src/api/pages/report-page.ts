// The Quick Scan report page and the form that asks for one. Every piece of text that came from a scan, a rule
// file or the request is escaped; the structure is fixed here.
import { escapeHtml } from '../../lib/html.ts';
import type { CategoryView, CheckView, FindingView, ReportView } from '../../service/report-view.ts';
import { slugify } from './docs-html.ts';
import { renderPage } from './page-layout.ts';

const OUTCOME_WORDS = { pass: 'passed', fail: 'failed', error: 'not evaluated', not_applicable: 'not applicable' };
const VERDICT_WORDS = { CERTIFIED: 'Certified', NOT_CONFORMANT: 'Not conformant', INCOMPLETE: 'Incomplete' };
/** Values of what a check saw are cut to this many characters on the page. */
const OBSERVED_LIMIT = 400;

/** Where a rule is documented: its entry in the rule catalogue. */
export const ruleDocsPath = (id: string) => `/docs/rules#${slugify(id)}`;

/** The Quick Scan form; `domain` pre-fills it. */
export function scanForm(domain = '', heading = 'Run a Quick Scan'): string {
  return `<section aria-labelledby="scan-form">
<h2 id="scan-form">${escapeHtml(heading)}</h2>
<form method="post" action="/report">
<label for="domain">Domain</label>
<input type="text" id="domain" name="domain" value="${escapeHtml(domain)}" required maxlength="253" autocomplete="url" spellcheck="false" inputmode="url" placeholder="example.com" aria-describedby="domain-help">
<button type="submit">Scan</button>
<p id="domain-help" class="muted">A host name such as <code>example.com</code>. The free Quick Scan runs a subset of the rules and takes a few seconds.</p>
</form>
</section>`;
}

function clip(text: string): string {
  return text.length > OBSERVED_LIMIT ? `${text.slice(0, OBSERVED_LIMIT)}…` : text;
}

const valueText = (value: unknown) => clip(typeof value === 'string' ? value : JSON.stringify(value));

/** What the check saw: the engine's `observed` when the result carries it, else what the rule's text says. */
function observedHtml(f: FindingView): string {
  const { observed } = f;
  if (observed !== undefined && observed !== null && typeof observed === 'object' && !Array.isArray(observed)) {
    const rows = Object.entries(observed as Record<string, unknown>).map(
      ([path, value]) =>
        `<dt><code>${escapeHtml(path)}</code></dt><dd><code>${escapeHtml(valueText(value))}</code></dd>`,
    );
    if (rows.length) return `<dl class="facts">${rows.join('')}</dl>`;
  } else if (observed !== undefined) {
    return `<p><code>${escapeHtml(valueText(observed))}</code></p>`;
  }
  if (f.outcome === 'error')
    return `<p>Could not be evaluated: ${escapeHtml(f.reason ?? 'the evidence it needs was not collected')}.</p>`;
  return `<p>This did not hold: ${escapeHtml(f.title)}.</p>`;
}

function referenceHtml(ref: string): string {
  return /^https?:\/\//.test(ref) ? `<a href="${escapeHtml(ref)}">${escapeHtml(ref)}</a>` : escapeHtml(ref);
}

function findingHtml(f: FindingView): string {
  const refs = f.references.length
    ? `<p class="muted">References: ${f.references.map(referenceHtml).join('; ')}</p>`
    : '';
  return `<article class="finding" aria-labelledby="f-${escapeHtml(f.id)}">
<h4 id="f-${escapeHtml(f.id)}">${escapeHtml(f.title)}</h4>
<p><span class="outcome-${f.outcome}">${OUTCOME_WORDS[f.outcome]}</span>, ${escapeHtml(f.level)} · <a href="${escapeHtml(ruleDocsPath(f.id))}"><code>${escapeHtml(f.id)}</code></a> (v${f.version})</p>
<h5 class="muted">What was observed</h5>
${observedHtml(f)}
<h5 class="muted">Why it matters</h5>
<p>${escapeHtml(f.rationale)}</p>
<h5 class="muted">How to fix it</h5>
<p>${escapeHtml(f.remediation)}</p>
${refs}
</article>`;
}

function othersHtml(others: CheckView[]): string {
  if (!others.length) return '';
  const items = others.map(
    (c) =>
      `<li><span class="outcome-${c.outcome}">${OUTCOME_WORDS[c.outcome]}</span>: <a href="${escapeHtml(ruleDocsPath(c.id))}">${escapeHtml(c.title)}</a></li>`,
  );
  return `<details>
<summary>${others.length} other check${others.length === 1 ? '' : 's'} (passed or not applicable)</summary>
<ul>
${items.join('\n')}
</ul>
</details>`;
}

function categoryHtml(c: CategoryView): string {
  const id = `category-${slugify(c.category)}`;
  const summary = c.findings.length ? `${c.findings.length} to look at` : 'nothing failed';
  return `<section aria-labelledby="${escapeHtml(id)}">
<h3 id="${escapeHtml(id)}">${escapeHtml(c.category)} <span class="muted">(${summary})</span></h3>
${c.findings.map(findingHtml).join('\n')}
${othersHtml(c.others)}
</section>`;
}

function summaryHtml(v: ReportView): string {
  const c = v.counts;
  const probes = v.unfinishedProbes.length
    ? `<p class="notice">Probes that did not finish: ${v.unfinishedProbes.map(([n, s]) => `${escapeHtml(n)} (${escapeHtml(s)})`).join(', ')}. Their checks could not be evaluated.</p>`
    : '';
  return `<p><span class="verdict verdict-${v.verdict}">${VERDICT_WORDS[v.verdict]}</span> · score <strong>${v.score}</strong>/100 <span class="muted">(indicative: a Quick Scan runs a subset of the rules)</span></p>
<dl class="facts">
<dt>Checks</dt><dd>${c.pass} passed, ${c.fail} failed, ${c.error} not evaluated, ${c.not_applicable} not applicable</dd>
<dt>Observed</dt><dd><time datetime="${escapeHtml(v.observedAt)}">${escapeHtml(v.observedAt)}</time></dd>
<dt>Ruleset</dt><dd>${escapeHtml(v.ruleset.version)} <code>${escapeHtml(v.ruleset.digest.slice(0, 12))}</code></dd>
</dl>
${probes}`;
}

function fullValidationHtml(domain: string): string {
  return `<section aria-labelledby="full">
<h2 id="full">Full Validation</h2>
<p>A Full Validation runs every rule and returns a certificate signed by this service, which anyone can verify and you can anchor in your DNS and show with a badge. <a href="/checkout">Buy a Full Validation</a>, then send <code>{"domain": "${escapeHtml(domain)}", "payment_token": "…"}</code> to <code>POST /api/fullvalidation</code>.</p>
</section>`;
}

/** `history` is the domain's history section (history-section.ts), empty when it has no Full Validation. */
export function reportPage(v: ReportView, history = ''): string {
  return renderPage({
    title: `Quick Scan of ${v.domain}`,
    description: `Quick Scan of ${v.domain}: ${VERDICT_WORDS[v.verdict]}, score ${v.score}/100.`,
    body: `<h1>Quick Scan of ${escapeHtml(v.domain)}</h1>
${summaryHtml(v)}
${history}
<section aria-labelledby="findings">
<h2 id="findings">Findings by category</h2>
${v.categories.map(categoryHtml).join('\n')}
</section>
${fullValidationHtml(v.domain)}
${scanForm(v.domain, 'Scan again')}`,
  });
}

/** A scan that ran but could not judge the domain at all. */
export function notJudgedPage(domain: string, text: string, history = ''): string {
  return renderPage({
    title: `Quick Scan of ${domain}`,
    body: `<h1>Quick Scan of ${escapeHtml(domain)}</h1>
<p class="notice" role="status">The domain could not be judged: ${escapeHtml(text)}</p>
${history}
${scanForm(domain, 'Scan again')}`,
  });
}

/** No Quick Scan of the domain is kept right now; the page offers to run one (a GET never does). */
export function noReportPage(domain: string, ttlMinutes: number, history = ''): string {
  return renderPage({
    title: `No Quick Scan of ${domain}`,
    body: `<h1>No recent Quick Scan of ${escapeHtml(domain)}</h1>
<p>Quick Scan results are kept for ${ttlMinutes} minutes. Run one to see the report here.</p>
${history}
${scanForm(domain)}`,
  });
}

/** A request a person made that the service refused (bad domain, too many scans, a deadline). */
export function problemPage(status: number, message: string, domain = ''): string {
  return renderPage({
    title: 'The request could not be completed',
    body: `<h1>The request could not be completed</h1>
<p class="notice" role="alert">${escapeHtml(message)} <span class="muted">(HTTP ${status})</span></p>
${status === 404 ? '<p><a href="/">Home</a></p>' : scanForm(domain, 'Try again')}`,
  });
}
