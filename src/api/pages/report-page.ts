// The Quick Scan report page and the form that asks for one. Every piece of text that came from a scan, a rule
// file or the request is escaped; the structure is fixed here.
import type { AgentReadiness } from '../../engine/types.ts';
import { readinessLine } from '../../engine/summary.ts';
import { escapeHtml } from '../../lib/html.ts';
import type {
  CategoryView,
  CheckView,
  CoverageView,
  FindingView,
  GlanceRow,
  ReportView,
} from '../../service/report-view.ts';
import { gauge } from './gauge.ts';
import { slugify } from './docs-html.ts';
import { renderPage } from './page-layout.ts';

const OUTCOME_WORDS = { pass: 'passed', fail: 'failed', error: 'not evaluated', not_applicable: 'not applicable' };
const VERDICT_WORDS = { CERTIFIED: 'Certified', NOT_CONFORMANT: 'Not conformant', INCOMPLETE: 'Incomplete' };
/** Values of what a check saw are cut to this many characters on the page. */
const OBSERVED_LIMIT = 400;

/** Where a rule is documented: its entry in the rule catalogue. */
export const ruleDocsPath = (id: string) => `/docs/rules#${slugify(id)}`;

/** The Quick Scan form, declared as a WebMCP tool for browser agents; `domain` pre-fills it. */
export function scanForm(domain = '', heading = 'Run a Quick Scan'): string {
  return `<section aria-labelledby="scan-form">
<h2 id="scan-form">${escapeHtml(heading)}</h2>
<form method="post" action="/report" toolname="quick_scan" tooldescription="Runs a free Quick Scan of a domain: how ready its DNS, TLS, HTTP and agent-facing documents are for AI agents, with the report.">
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

/**
 * What the check saw: the lines as the site sent them when there is an excerpt, with the facts the rule read
 * (by path) as a detail below; else those facts, or what the rule's text says.
 */
function observedHtml(f: FindingView): string {
  const facts = factsHtml(f);
  const { excerpt } = f;
  if (!excerpt) return facts;
  const sent = excerpt.lines.length
    ? `<pre class="evidence"><code>${excerpt.lines.map((l) => escapeHtml(l)).join('\n')}</code></pre>`
    : `<p><strong>${escapeHtml(excerpt.absent ?? 'nothing sent')}</strong></p>`;
  return `<p class="muted">${escapeHtml(excerpt.source)}:</p>
${sent}
<details><summary>The facts the check read</summary>
${facts}
</details>`;
}

/** The facts the rule read, by observation path, or what its text says when it kept none. */
function factsHtml(f: FindingView): string {
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

const categoryId = (c: Pick<CategoryView, 'category'>) => `category-${slugify(c.category)}`;
const lookAt = (c: CategoryView) => (c.findings.length ? `${c.findings.length} to look at` : 'nothing failed');

function categoryHtml(c: CategoryView): string {
  const id = categoryId(c);
  const about = c.about ? `<p class="muted">${escapeHtml(c.about)}</p>` : '';
  return `<section aria-labelledby="${escapeHtml(id)}">
<h3 id="${escapeHtml(id)}">${escapeHtml(c.name)} <span class="muted">(${lookAt(c)})</span></h3>
${about}
${c.findings.map(findingHtml).join('\n')}
${othersHtml(c.others)}
</section>`;
}

/** One gauge per category, linking to its group, in the order the groups come. */
function gaugesHtml(v: ReportView): string {
  const items = v.categories.map(
    (c) =>
      `<li><a href="#${escapeHtml(categoryId(c))}">${gauge(c.score, `${c.name}: ${c.score === null ? 'no scored check applied' : `${c.score} of 100`}, ${lookAt(c)}`)}<span class="gauge-name">${escapeHtml(c.name)}</span><span class="muted gauge-note">${lookAt(c)}</span></a></li>`,
  );
  return `<section aria-labelledby="categories">
<h2 id="categories">By category</h2>
<p class="muted">Each gauge applies the report's score to the category's own checks: under 50 when one of its required checks failed, 90 or more when at most a fifth of its recommended checks failed.</p>
<ul class="gauges">
${items.join('\n')}
</ul>
</section>`;
}

const GLANCE_WORDS = { pass: 'Passed', fail: 'Failed', error: 'Not evaluated' };

function glanceRowHtml(row: GlanceRow, findingIds: ReadonlySet<string>): string {
  const target = findingIds.has(row.id) ? `#f-${row.id}` : ruleDocsPath(row.id);
  const more = row.findings > 1 ? ` <span class="muted">(${row.findings} of ${row.checks} checks)</span>` : '';
  const seen = row.seen ? `<code>${escapeHtml(row.seen)}</code>` : '<span class="muted">nothing to show</span>';
  return `<tr><th scope="row"><a href="${escapeHtml(target)}">${escapeHtml(row.title)}</a></th><td class="result"><span class="outcome-${row.outcome}">${GLANCE_WORDS[row.outcome]}</span>, ${escapeHtml(row.level)}${more}</td><td>${seen}</td></tr>`;
}

/** The at-a-glance table: one line per subject checked, what failed first. */
function glanceHtml(v: ReportView): string {
  if (!v.glance.length) return '';
  const findingIds = new Set(v.categories.flatMap((c) => c.findings.map((f) => f.id)));
  return `<section aria-labelledby="glance">
<h2 id="glance">At a glance</h2>
<table class="glance">
<caption class="muted">One line per thing checked: its most telling rule, the result and what the scan saw.</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Seen</th></tr></thead>
<tbody>
${v.glance.map((row) => glanceRowHtml(row, findingIds)).join('\n')}
</tbody>
</table>
</section>`;
}

/** What the Quick Scan did not check and a Full Validation adds, from the catalogue. */
function coverageHtml(c: CoverageView): string {
  const added = c.catalogue - c.ran;
  const required = c.notChecked.reduce((n, g) => n + g.required, 0);
  const items = c.notChecked.map(
    (g) =>
      `<li><details><summary>${escapeHtml(g.name)}: ${g.rules} check${g.rules === 1 ? '' : 's'}${g.required ? `, ${g.required} required` : ''}</summary>
<ul>${g.titles.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>
</details></li>`,
  );
  return `<section aria-labelledby="not-checked">
<h2 id="not-checked">What this Quick Scan did not check</h2>
<p>This Quick Scan ran ${c.ran} of the catalogue's ${c.catalogue} rules. A Full Validation runs all of them: ${added} more checks, ${required} of them required, so its verdict can be worse than this one. Not checked here:</p>
<ul class="coverage">
${items.join('\n')}
</ul>
</section>`;
}

const SCORE_MEANING = {
  CERTIFIED: 'every required check passed; the score falls from 100 with the recommended checks that failed',
  NOT_CONFORMANT: 'a required check failed, which keeps the score under 50',
  INCOMPLETE: 'a required check could not be evaluated, which keeps the score under 50',
};

function summaryHtml(v: ReportView): string {
  const c = v.counts;
  const probes = v.unfinishedProbes.length
    ? `<p class="notice">Probes that did not finish: ${v.unfinishedProbes.map(([n, s]) => `${escapeHtml(n)} (${escapeHtml(s)})`).join(', ')}. Their checks could not be evaluated.</p>`
    : '';
  const indicative = v.tier === 'quick' ? ' Indicative: a Quick Scan runs a subset of the rules.' : '';
  return `<div class="overall">
${gauge(v.score, `score ${v.score} of 100`, 'gauge-large')}
<p><span class="verdict verdict-${v.verdict}">${VERDICT_WORDS[v.verdict]}</span> · score <strong>${v.score}</strong>/100<br><span class="muted">${SCORE_MEANING[v.verdict]} (<a href="/docs/rules#the-score">how the score works</a>).${indicative}</span></p>
</div>
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

/** The parts every report page shows, in order: the summary, the gauges, the table, then the findings. */
export function reportParts(v: ReportView, history: string, before = ''): string {
  return `${summaryHtml(v)}
${before}
${gaugesHtml(v)}
${glanceHtml(v)}
${history}
<section aria-labelledby="findings">
<h2 id="findings">Findings by category</h2>
${v.categories.map(categoryHtml).join('\n')}
</section>`;
}

/**
 * The agent-readiness level of a Quick Scan's results, and which of the level's checks it did not judge: the level
 * is then the least the site reaches (a Full Validation's page shows the level of its certificate's results).
 */
function readinessHtml(r: AgentReadiness | null): string {
  if (!r) return '';
  const unknown = Object.entries(r.checks)
    .filter(([, status]) => status === 'unknown')
    .map(([id]) => `<code>${escapeHtml(id)}</code>`);
  const notRun = unknown.length ? `<dt>Not judged by this Quick Scan</dt><dd>${unknown.join(', ')}</dd>` : '';
  return `<dl class="facts">
<dt>Agent readiness</dt><dd>${escapeHtml(readinessLine(r))}</dd>
${notRun}
</dl>`;
}

/** `history` is the domain's history section (history-section.ts), empty when it has no Full Validation. */
export function reportPage(v: ReportView, history = ''): string {
  return renderPage({
    title: `Quick Scan of ${v.domain}`,
    description: `Quick Scan of ${v.domain}: ${VERDICT_WORDS[v.verdict]}, score ${v.score}/100.`,
    body: `<h1>Quick Scan of ${escapeHtml(v.domain)}</h1>
${reportParts(v, history, readinessHtml(v.readiness))}
${v.coverage ? coverageHtml(v.coverage) : ''}
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
