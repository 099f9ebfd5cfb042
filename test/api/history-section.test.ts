// The report page's history section: an SVG chart the page's policy allows (no script, no style attribute),
// one mark per validation shaped by verdict, the same points as a table, and the last run's changes with what
// each rule read then and now, every text escaped.
import { expect, it } from 'vitest';
import { historyChart, historySection } from '../../src/api/pages/history-section.ts';
import type { HistoryEntry } from '../../src/service/domain-history.ts';

const entry = (day: number, verdict: HistoryEntry['verdict'], score: number): HistoryEntry => ({
  certificate_id: `dvc_${String(day).padStart(32, '0')}`,
  observed_at: `2026-11-${String(day).padStart(2, '0')}T06:00:00Z`,
  issued_at: `2026-11-${String(day).padStart(2, '0')}T06:00:01Z`,
  verdict,
  score,
  ruleset_version: '1.4.0',
  status: {
    id: `dvc_${String(day).padStart(32, '0')}`,
    domain: 'example.com',
    status: 'valid',
    issued_at: '2026-11-01T06:00:01Z',
    expires_at: null,
    checked_at: '2026-11-29T00:00:00Z',
  },
  changes: null,
});

const oldestFirst = [entry(1, 'CERTIFIED', 100), entry(2, 'NOT_CONFORMANT', 80), entry(4, 'INCOMPLETE', 90)];

it('draws one mark per validation, placed by time and score, told apart by shape', () => {
  const svg = historyChart(oldestFirst);
  expect(svg).toMatch(/^<svg class="chart" viewBox="0 0 640 220" role="img" aria-labelledby="chart-title chart-desc"/);
  expect(svg).not.toMatch(/<script|style=|on\w+=/i);
  expect(svg.match(/<circle class="point verdict-CERTIFIED" cx="40" cy="12"/g)).toHaveLength(1);
  // Day 2 of a three-day span, score 80: a third across, a fifth down the 172-pixel plot.
  expect(svg).toContain('<rect class="point verdict-NOT_CONFORMANT" x="230.7" y="42.4" width="8" height="8">');
  expect(svg).toContain('<path class="point verdict-INCOMPLETE" d="M624 24.2');
  expect(svg).toContain('<polyline class="score" points="40,12 234.7,46.4 624,29.2"/>');
  expect(svg).toContain('<title>2026-11-02: Not conformant, score 80</title>');
  expect(svg).toContain('3 validations from 2026-11-01 to 2026-11-04; the last Incomplete, score 90.');
});

it('lists the points newest first and the last run’s changes with what each rule read, escaped', () => {
  const html = historySection([...oldestFirst].reverse(), [
    {
      id: 'headers.hsts.present',
      level: 'required',
      before: { outcome: 'pass', observed: { 'http.hsts': '<max-age=1>' } },
      after: { outcome: 'fail', observed: { 'http.hsts': null } },
    },
  ]);
  const rows = [...html.matchAll(/<tr><td><time datetime="([^"]+)"/g)].map((m) => m[1]);
  expect(rows).toEqual(['2026-11-04T06:00:00Z', '2026-11-02T06:00:00Z', '2026-11-01T06:00:00Z']);
  expect(html).toContain(
    '<code>headers.hsts.present</code> (required): <span class="outcome-pass">passed</span> → <span class="outcome-fail">failed</span>',
  );
  expect(html).toContain('<code>&#34;&#60;max-age=1&#62;&#34;</code>');
  expect(html).toContain('<dd><code>null</code></dd>');
  expect(historySection([entry(1, 'CERTIFIED', 100)], null)).toContain('the first Full Validation kept');
  expect(historySection([], null)).toBe('');
});

it('gives the chart a legend: the score line and each verdict drawn by the mark the chart uses', () => {
  const html = historySection([...oldestFirst].reverse(), null);
  const legend = /<ul class="legend" aria-label="Chart legend">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
  expect(legend.match(/<li>/g)).toHaveLength(4);
  expect(legend).toContain('<line class="score"');
  expect(legend).toMatch(/<circle class="verdict-CERTIFIED"[^>]*\/><\/svg>Certified<\/li>/);
  expect(legend).toMatch(/<rect class="verdict-NOT_CONFORMANT"[^>]*\/><\/svg>Not conformant<\/li>/);
  expect(legend).toMatch(/<path class="verdict-INCOMPLETE"[^>]*\/><\/svg>Incomplete<\/li>/);
  expect(legend).not.toMatch(/<script|style=|on\w+=/i);
});
