// The report page's read model: results grouped by their rules' categories, findings first and by weight, the
// rule files' texts beside each failure, `observed` carried when a result has it; a cache miss is no report.
import { describe, expect, it } from 'vitest';
import type { LoadedRule, Report, RuleResult } from '../../src/engine/types.ts';
import { QuickScanReports, reportView } from '../../src/service/report-view.ts';
import type { CachedQuickScan } from '../../src/service/quick-scan-cache.ts';

const rule = (id: string, category: string, tier: 'quick' | 'full' = 'quick', level = 'required'): LoadedRule =>
  ({
    id,
    category,
    tier,
    level,
    title: `title of ${id}`,
    rationale: `  why ${id}\n`,
    remediation: `fix ${id}`,
    references: ['RFC 6797', 'https://example.org/spec'],
  }) as LoadedRule;

const RULES = [
  rule('headers.a', 'headers'),
  rule('headers.b', 'headers'),
  rule('headers.c', 'headers'),
  rule('headers.d', 'headers'),
  rule('dns.a', 'dns'),
  rule('tls.a', 'tls'),
  rule('headers.e', 'headers', 'full'),
  rule('email.a', 'email', 'full', 'recommended'),
  rule('email.b', 'email', 'full'),
];
const ruleset = { byId: new Map(RULES.map((r) => [r.id, r])), rules: RULES };

/** A result as the engine writes it: `observed` is empty when the rule read nothing worth showing. */
const result = (id: string, level: RuleResult['level'], outcome: RuleResult['outcome'], extra = {}): RuleResult => ({
  id,
  version: 1,
  level,
  outcome,
  observed: {},
  ...extra,
});

const report: Report = {
  type: 'dvs.report',
  version: 1,
  engine: 'test',
  domain: 'example.test',
  tier: 'quick',
  observed_at: '2026-01-01T00:00:00Z',
  verdict: 'NOT_CONFORMANT',
  score: 61,
  ruleset: { version: '1.0.0', digest: 'ab'.repeat(32) },
  evidence_digest: 'cd'.repeat(32),
  counts: { pass: 2, fail: 2, error: 1, not_applicable: 1 },
  probes: { http: 'ok', dns: 'timeout', tls: 'skipped' },
  results: [
    result('dns.a', 'required', 'pass'),
    result('headers.a', 'recommended', 'fail', { observed: { 'http.headers.hsts': null } }),
    result('headers.b', 'required', 'error', { reason: 'probe http timed out' }),
    result('headers.c', 'required', 'fail'),
    result('headers.d', 'informational', 'not_applicable'),
    result('tls.a', 'required', 'pass'),
  ],
};

describe('reportView', () => {
  const view = reportView(report, ruleset);

  it('puts categories with findings first, then the rest by name, named for people and scored', () => {
    expect(view.categories.map((c) => [c.category, c.name, c.score, c.verdict])).toEqual([
      // headers: two required rules not passing and one recommended failure: floor(49 x 0 / 7).
      ['headers', 'Security headers', 0, 'NOT_CONFORMANT'],
      ['dns', 'DNS', 100, 'CERTIFIED'],
      ['tls', 'TLS and certificate', 100, 'CERTIFIED'],
    ]);
    expect(view.categories[0]!.about).toMatch(/HSTS/);
  });

  it('orders groups by required findings, then by findings, then by the lower score', () => {
    const more: Report = {
      ...report,
      results: [
        result('dns.a', 'recommended', 'fail'),
        result('headers.a', 'recommended', 'fail'),
        result('headers.b', 'recommended', 'fail'),
        result('tls.a', 'required', 'fail'),
      ],
    };
    expect(reportView(more, ruleset).categories.map((c) => c.category)).toEqual(['tls', 'headers', 'dns']);
  });

  it('lines up one row per subject, its worst finding first, with what the rule read', () => {
    expect(view.glance.map((g) => [g.subject, g.id, g.outcome, g.level, g.checks, g.findings, g.seen])).toEqual([
      ['headers.c', 'headers.c', 'fail', 'required', 1, 1, ''],
      ['headers.b', 'headers.b', 'error', 'required', 1, 1, 'probe http timed out'],
      ['headers.a', 'headers.a', 'fail', 'recommended', 1, 1, 'headers.hsts: null'],
      ['dns.a', 'dns.a', 'pass', 'required', 1, 0, ''],
      ['tls.a', 'tls.a', 'pass', 'required', 1, 0, ''],
    ]);
    const shared: Report = {
      ...report,
      results: [
        result('headers.hsts.a', 'recommended', 'pass', { observed: { 'http.hsts.max_age': 300 } }),
        result('headers.hsts.b', 'required', 'fail', {
          observed: { 'http.hsts.values': [], 'http.hsts.valid': false },
        }),
        result('headers.hsts.c', 'informational', 'fail'),
      ],
    };
    expect(reportView(shared, ruleset).glance).toEqual([
      {
        subject: 'headers.hsts',
        category: 'headers',
        title: 'headers.hsts.b',
        id: 'headers.hsts.b',
        outcome: 'fail',
        level: 'required',
        checks: 2,
        findings: 1,
        seen: 'hsts.valid: false',
      },
    ]);
  });

  it('says what a Quick Scan did not check, from the catalogue, required first', () => {
    expect(view.coverage).toEqual({
      ran: 6,
      catalogue: 9,
      notChecked: [
        {
          category: 'email',
          name: 'Email authentication',
          rules: 2,
          required: 1,
          titles: ['title of email.b', 'title of email.a'],
        },
        { category: 'headers', name: 'Security headers', rules: 1, required: 1, titles: ['title of headers.e'] },
      ],
    });
    expect(reportView({ ...report, tier: 'full' }, ruleset).coverage).toBeNull();
  });

  it('orders findings by level, a failure before an error of the same level, with the rule files texts', () => {
    const headers = view.categories[0]!;
    expect(headers.findings.map((f) => [f.id, f.outcome])).toEqual([
      ['headers.c', 'fail'],
      ['headers.b', 'error'],
      ['headers.a', 'fail'],
    ]);
    expect(headers.findings[0]).toEqual({
      id: 'headers.c',
      version: 1,
      title: 'title of headers.c',
      level: 'required',
      outcome: 'fail',
      rationale: 'why headers.c',
      remediation: 'fix headers.c',
      references: ['RFC 6797', 'https://example.org/spec'],
    });
    expect(headers.findings[1]!.reason).toBe('probe http timed out');
    expect(headers.findings[2]!.observed).toEqual({ 'http.headers.hsts': null });
    expect(headers.others).toEqual([
      { id: 'headers.d', title: 'title of headers.d', level: 'informational', outcome: 'not_applicable' },
    ]);
  });

  it('names the probes that failed or timed out, not the skipped ones', () => {
    expect(view.unfinishedProbes).toEqual([['dns', 'timeout']]);
    expect(view).toMatchObject({ domain: 'example.test', verdict: 'NOT_CONFORMANT', score: 61 });
  });
});

describe('QuickScanReports', () => {
  const reports = (cached: CachedQuickScan | null) =>
    new QuickScanReports({ cached: () => Promise.resolve(cached ? { ...cached, cached: true } : null) }, ruleset);

  it('has no report without a cached scan, and says why a scan could not judge the domain', async () => {
    expect(await reports(null).latest('example.test')).toBeNull();
    const failed = { result: { content: [{ type: 'text' as const, text: 'NXDOMAIN' }], isError: true }, report: null };
    expect(await reports(failed).latest('example.test')).toEqual({
      kind: 'not_judged',
      domain: 'example.test',
      text: 'NXDOMAIN',
    });
    const found = await reports({ result: { content: [] }, report }).latest('example.test');
    expect(found?.kind === 'report' && found.view.categories.length).toBe(3);
  });
});
