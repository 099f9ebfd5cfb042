// The history section of the report page: a chart of score and verdict over the domain's Full Validations,
// drawn here as SVG markup (the pages run no script) with its legend, a table of the same points for those who
// do not see the chart, and the rules that changed in the last run with what each read then and now.
import { escapeHtml } from '../../lib/html.ts';
import type { RuleChange, RuleSide } from '../../lib/report-diff.ts';
import type { HistoryEntry } from '../../service/domain-history.ts';
import { certificateReportPath } from './certificate-report-page.ts';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 40, right: 16, top: 12, bottom: 36 };
const VERDICT_WORDS = { CERTIFIED: 'Certified', NOT_CONFORMANT: 'Not conformant', INCOMPLETE: 'Incomplete' };
const OUTCOME_WORDS = { pass: 'passed', fail: 'failed', error: 'not evaluated', not_applicable: 'not applicable' };

const day = (iso: string) => iso.slice(0, 10);
const round = (n: number) => Math.round(n * 10) / 10;

/** One mark per verdict, told apart by shape as well as colour. */
function mark(entry: HistoryEntry, x: number, y: number): string {
  const title = `<title>${escapeHtml(`${day(entry.observed_at)}: ${VERDICT_WORDS[entry.verdict]}, score ${entry.score}`)}</title>`;
  const cls = `point verdict-${entry.verdict}`;
  if (entry.verdict === 'CERTIFIED') return `<circle class="${cls}" cx="${x}" cy="${y}" r="4">${title}</circle>`;
  if (entry.verdict === 'NOT_CONFORMANT')
    return `<rect class="${cls}" x="${round(x - 4)}" y="${round(y - 4)}" width="8" height="8">${title}</rect>`;
  return `<path class="${cls}" d="M${x} ${round(y - 5)}L${round(x + 5)} ${y}L${x} ${round(y + 5)}L${round(x - 5)} ${y}Z">${title}</path>`;
}

/** The chart of `entries` (oldest first): score on the vertical axis, time on the horizontal one. */
export function historyChart(entries: readonly HistoryEntry[]): string {
  const times = entries.map((e) => Date.parse(e.observed_at));
  const first = Math.min(...times);
  const span = Math.max(...times) - first || 1;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (t: number) => round(PAD.left + (entries.length === 1 ? plotW / 2 : ((t - first) / span) * plotW));
  const y = (score: number) => round(PAD.top + plotH - (score / 100) * plotH);
  const grid = [0, 50, 100]
    .map(
      (s) =>
        `<line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(s)}" y2="${y(s)}"/><text class="axis" x="${PAD.left - 6}" y="${y(s) + 4}" text-anchor="end">${s}</text>`,
    )
    .join('');
  const points = entries.map((e, i) => [x(times[i]!), y(e.score)] as const);
  const line = `<polyline class="score" points="${points.map(([px, py]) => `${px},${py}`).join(' ')}"/>`;
  const marks = entries.map((e, i) => mark(e, points[i]![0], points[i]![1])).join('');
  const last = entries[entries.length - 1]!;
  const labels = `<text class="axis" x="${PAD.left}" y="${HEIGHT - 12}">${escapeHtml(day(entries[0]!.observed_at))}</text><text class="axis" x="${WIDTH - PAD.right}" y="${HEIGHT - 12}" text-anchor="end">${escapeHtml(day(last.observed_at))}</text>`;
  const desc = `${entries.length} validation${entries.length === 1 ? '' : 's'} from ${day(entries[0]!.observed_at)} to ${day(last.observed_at)}; the last ${VERDICT_WORDS[last.verdict]}, score ${last.score}.`;
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg"><title id="chart-title">Score and verdict over time</title><desc id="chart-desc">${escapeHtml(desc)}</desc>${grid}${labels}${line}${marks}</svg>`;
}

const LEGEND_MARKS = {
  CERTIFIED: '<circle class="verdict-CERTIFIED" cx="8" cy="8" r="4"/>',
  NOT_CONFORMANT: '<rect class="verdict-NOT_CONFORMANT" x="4" y="4" width="8" height="8"/>',
  INCOMPLETE: '<path class="verdict-INCOMPLETE" d="M8 3L13 8L8 13L3 8Z"/>',
};

/** What the chart's line and marks mean, the marks drawn as the chart draws them (shape tells, not colour alone). */
function legendHtml(): string {
  const icon = (inner: string) =>
    `<svg viewBox="0 0 16 16" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">${inner}</svg>`;
  const items = [
    `<li>${icon('<line class="score" x1="1" y1="8" x2="15" y2="8"/>')}score (0 to 100)</li>`,
    ...(Object.keys(LEGEND_MARKS) as (keyof typeof LEGEND_MARKS)[]).map(
      (v) => `<li>${icon(LEGEND_MARKS[v])}${VERDICT_WORDS[v]}</li>`,
    ),
  ];
  return `<ul class="legend" aria-label="Chart legend">\n${items.join('\n')}\n</ul>`;
}

function tableHtml(entries: readonly HistoryEntry[]): string {
  const rows = [...entries]
    .reverse()
    .map(
      (e) =>
        `<tr><td><time datetime="${escapeHtml(e.observed_at)}">${escapeHtml(e.observed_at)}</time></td><td class="verdict-${e.verdict}">${VERDICT_WORDS[e.verdict]}</td><td>${e.score}</td><td>${escapeHtml(e.ruleset_version)}</td><td><a href="/certificates/${escapeHtml(e.certificate_id)}"><code>${escapeHtml(e.certificate_id)}</code></a> (${escapeHtml(e.status.status)})</td><td><a href="${escapeHtml(certificateReportPath(e.certificate_id))}">report</a></td></tr>`,
    );
  return `<details>
<summary>The validations as a table</summary>
<table>
<thead><tr><th scope="col">Observed</th><th scope="col">Verdict</th><th scope="col">Score</th><th scope="col">Ruleset</th><th scope="col">Certificate</th><th scope="col">Report</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</details>`;
}

function observedHtml(s: RuleSide): string {
  const rows = Object.entries(s.observed ?? {}).map(
    ([path, value]) =>
      `<dt><code>${escapeHtml(path)}</code></dt><dd><code>${escapeHtml(JSON.stringify(value).slice(0, 400))}</code></dd>`,
  );
  return rows.length ? `<dl class="facts">${rows.join('')}</dl>` : '<p class="muted">No values kept.</p>';
}

const outcomeHtml = (s: RuleSide) =>
  s.outcome === null
    ? '<span class="muted">not run</span>'
    : `<span class="outcome-${s.outcome}">${OUTCOME_WORDS[s.outcome]}</span>`;

function changeHtml(c: RuleChange): string {
  return `<li><code>${escapeHtml(c.id)}</code> (${escapeHtml(c.level)}): ${outcomeHtml(c.before)} → ${outcomeHtml(c.after)}
<h4 class="muted">Then</h4>
${observedHtml(c.before)}
<h4 class="muted">Now</h4>
${observedHtml(c.after)}</li>`;
}

/**
 * The section, given the history newest first and the last run's changes as the two runs' reports give them
 * (null when the domain has a single validation).
 */
export function historySection(newestFirst: readonly HistoryEntry[], lastChanges: RuleChange[] | null): string {
  if (newestFirst.length === 0) return '';
  const entries = [...newestFirst].reverse();
  const changes =
    lastChanges === null
      ? '<p>This is the first Full Validation kept for the domain.</p>'
      : lastChanges.length === 0
        ? '<p>No rule changed outcome in the last run.</p>'
        : `<ul class="changes">\n${lastChanges.map(changeHtml).join('\n')}\n</ul>`;
  return `<section aria-labelledby="history">
<h2 id="history">History of Full Validations</h2>
${historyChart(entries)}
${legendHtml()}
${tableHtml(entries)}
<h3>Changed in the last run</h3>
${changes}
</section>`;
}
