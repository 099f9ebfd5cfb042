// The report page's HTML from a read model: everything that came from a scan or a rule file is escaped, what a
// check saw is shown when the result carries it (the rule's own text otherwise), and the badge says the verdict.
import { describe, expect, it } from 'vitest';
import { badgeSvg } from '../../src/api/pages/badge.ts';
import { reportPage, ruleDocsPath } from '../../src/api/pages/report-page.ts';
import type { FindingView, GlanceRow, ReportView } from '../../src/service/report-view.ts';

const HOSTILE = '<script>alert(1)</script>';

function finding(extra: Partial<FindingView>): FindingView {
  return {
    id: 'headers.hsts.present',
    version: 2,
    title: 'A valid HSTS header is sent',
    level: 'required',
    outcome: 'fail',
    rationale: 'why it matters',
    remediation: 'how to fix it',
    references: [],
    ...extra,
  };
}

function view(findings: FindingView[], extra: Partial<ReportView> = {}): ReportView {
  return {
    domain: 'example.test',
    tier: 'quick',
    verdict: 'NOT_CONFORMANT',
    score: 42,
    observedAt: '2026-01-01T00:00:00Z',
    ruleset: { version: '1.1.0', digest: 'ab'.repeat(32) },
    counts: { pass: 0, fail: findings.length, error: 0, not_applicable: 0 },
    unfinishedProbes: [],
    glance: [],
    categories: [
      {
        category: 'headers',
        name: 'Security headers',
        about: 'HSTS and the rest',
        score: 42,
        verdict: 'NOT_CONFORMANT',
        findings,
        others: [],
      },
    ],
    coverage: null,
    readiness: null,
    ...extra,
  };
}

describe('reportPage', () => {
  it('escapes every text that came from a scan or a rule file', () => {
    const html = reportPage(
      view([
        finding({
          title: HOSTILE,
          rationale: HOSTILE,
          remediation: HOSTILE,
          references: [`https://example.org/"${HOSTILE}`, `RFC ${HOSTILE}`],
          observed: { [`http.${HOSTILE}`]: HOSTILE },
        }),
      ]),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  it('shows bidirectional controls from a scan as their code points, never raw', () => {
    // Issue 31 item 10: U+202E and U+2066 in scanned text reordered what the page showed around them.
    const controls = '\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    const html = reportPage(
      view([
        finding({
          observed: { 'http.headers.server': `nginx\u202Etxt.exe`, [`http.x\u2066`]: controls },
        }),
      ]),
    );
    expect(html).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(html).toContain('nginx[U+202E]txt.exe');
    expect(html).toContain('[U+061C][U+200E][U+200F][U+202A][U+202B][U+202C][U+202D][U+202E][U+2066][U+2067]');
  });

  it('shows what the check saw when the result carries it, cut to a bounded length', () => {
    const html = reportPage(
      view([
        finding({ observed: { 'http.headers.strict_transport_security': 'max-age=86400', 'http.status': 200 } }),
        finding({ id: 'headers.x', observed: 'found: max-age=86400, needs at least 15552000' }),
        finding({ id: 'headers.long', observed: { 'http.body': 'x'.repeat(1000) } }),
      ]),
    );
    expect(html).toContain(
      '<dt><code>http.headers.strict_transport_security</code></dt><dd><code>max-age=86400</code></dd>',
    );
    expect(html).toContain('<dt><code>http.status</code></dt><dd><code>200</code></dd>');
    expect(html).toContain('<p><code>found: max-age=86400, needs at least 15552000</code></p>');
    expect(html).toContain(`<code>${'x'.repeat(400)}…</code>`);
    expect(html).not.toContain('x'.repeat(401));
  });

  it("falls back to the rule's text: what did not hold, or why it could not be evaluated", () => {
    const html = reportPage(
      view([finding({}), finding({ id: 'headers.e', outcome: 'error', reason: 'probe http timed out' })]),
    );
    expect(html).toContain('<p>This did not hold: A valid HSTS header is sent.</p>');
    expect(html).toContain('<p>Could not be evaluated: probe http timed out.</p>');
    expect(html).toContain(`<a href="${ruleDocsPath('headers.hsts.present')}">`);
    expect(ruleDocsPath('headers.hsts.present')).toBe('/docs/rules#headers.hsts.present');
  });
});

describe('evidence as the site sent it', () => {
  it('shows the lines as sent, escaped, with the facts the check read as a detail', () => {
    const html = reportPage(
      view([
        finding({
          excerpt: {
            source: 'Response headers of https://example.test/ (HTTP/2 200)',
            lines: [`Server: ${HOSTILE}`, 'X-A: 1'],
          },
          observed: { 'http.security_headers.server.raw': 'x' },
        }),
      ]),
    );
    expect(html).toContain(
      '<p class="muted">Response headers of https://example.test/ (HTTP/2 200):</p>\n<pre class="evidence"><code>Server: &#60;script&#62;alert(1)&#60;/script&#62;\nX-A: 1</code></pre>\n<details><summary>The facts the check read</summary>\n<dl class="facts"><dt><code>http.security_headers.server.raw</code></dt>',
    );
  });

  it('says what the site did not send', () => {
    const html = reportPage(
      view([
        finding({ excerpt: { source: 'Response headers', lines: [], absent: 'no Strict-Transport-Security header' } }),
      ]),
    );
    expect(html).toContain('<p><strong>no Strict-Transport-Security header</strong></p>');
    expect(html).toContain('<p>This did not hold: A valid HSTS header is sent.</p>');
  });
});

describe('the summary, gauges, table and coverage', () => {
  const glance: GlanceRow[] = [
    {
      subject: 'headers.hsts',
      category: 'headers',
      title: 'A valid HSTS header is sent',
      id: 'headers.hsts.present',
      outcome: 'fail',
      level: 'required',
      checks: 3,
      findings: 2,
      seen: `hsts.values: ${HOSTILE}`,
    },
    {
      subject: 'tls.protocol',
      category: 'tls',
      title: 'TLS 1.3 is offered',
      id: 'tls.protocol.tls13',
      outcome: 'pass',
      level: 'required',
      checks: 1,
      findings: 0,
      seen: '',
    },
  ];
  const coverage = {
    ran: 100,
    catalogue: 432,
    notChecked: [
      {
        category: 'email',
        name: 'Email authentication',
        rules: 31,
        required: 9,
        titles: ['An SPF record is published', HOSTILE],
      },
    ],
  };
  const html = reportPage(
    view([finding({})], {
      glance,
      coverage,
      categories: [
        {
          category: 'headers',
          name: 'Security headers',
          about: '',
          score: 42,
          verdict: 'NOT_CONFORMANT',
          findings: [finding({})],
          others: [],
        },
        {
          category: 'usage',
          name: 'AI usage preferences',
          about: '',
          score: null,
          verdict: 'CERTIFIED',
          findings: [],
          others: [],
        },
      ],
    }),
  );

  it('says what the score means for the verdict, beside an overall gauge, and links to the formula', () => {
    expect(html).toContain(
      '<svg class="gauge gauge-poor gauge-large" viewBox="0 0 100 100" role="img" aria-label="score 42 of 100"',
    );
    expect(html).toContain('a required check failed, which keeps the score under 50');
    expect(html).toContain('<a href="/docs/rules#the-score">how the score works</a>');
  });

  it('draws one gauge per category, linked to its group, named for people; none where no scored check applied', () => {
    expect(html).toContain(
      '<li><a href="#category-headers"><svg class="gauge gauge-poor" viewBox="0 0 100 100" role="img" aria-label="Security headers: 42 of 100, 1 to look at"',
    );
    expect(html).toContain('aria-label="AI usage preferences: no scored check applied, nothing failed"');
    expect(html).toContain('<h3 id="category-headers">Security headers <span class="muted">(1 to look at)</span></h3>');
    // 42 of the ring's 263.9 length: the arc's drawn length is in proportion.
    expect(html).toContain('stroke-dasharray="110.8 264"');
  });

  it('puts a line per subject above the findings: result, level, what was seen, escaped', () => {
    expect(html.indexOf('id="glance"')).toBeLessThan(html.indexOf('id="findings"'));
    expect(html).toContain(
      '<tr><th scope="row"><a href="#f-headers.hsts.present">A valid HSTS header is sent</a></th><td class="result"><span class="outcome-fail">Failed</span>, required <span class="muted">(2 of 3 checks)</span></td><td><code>hsts.values: &#60;script&#62;',
    );
    expect(html).toContain(`<a href="${ruleDocsPath('tls.protocol.tls13')}">TLS 1.3 is offered</a>`);
    expect(html).not.toContain('<script>');
  });

  it('says what the Quick Scan did not check and what a Full Validation adds', () => {
    expect(html).toContain(
      "This Quick Scan ran 100 of the catalogue's 432 rules. A Full Validation runs all of them: 332 more checks, 9 of them required",
    );
    expect(html).toContain('<summary>Email authentication: 31 checks, 9 required</summary>');
    expect(reportPage(view([]))).not.toContain('id="not-checked"');
  });

  it('shows the agent-readiness level the report carries, partial, with the checks the Quick Scan did not judge', () => {
    const readiness = {
      anchor: 'isitagentready' as const,
      level: 1,
      name: 'Basic Web Presence' as const,
      checks: { robotsTxt: 'pass' as const, webBotAuth: 'unknown' as const, oauthDiscovery: 'unknown' as const },
      partial: true as const,
      next: { level: 2, name: 'Bot-Aware' as const, needs: ['robotsTxtAiRules'] },
    };
    const page = reportPage(view([], { readiness }));
    expect(page).toContain(
      '<dt>Agent readiness</dt><dd>Agent-readiness level 1 of 5 (Basic Web Presence, at least: some checks were not run); level 2 needs robotsTxtAiRules</dd>',
    );
    expect(page).toContain(
      '<dt>Not judged by this Quick Scan</dt><dd><code>webBotAuth</code>, <code>oauthDiscovery</code></dd>',
    );
    expect(reportPage(view([]))).not.toContain('Agent readiness');
  });
});

describe('badgeSvg', () => {
  it('names the verdict, or "not validated", as an accessible image', () => {
    for (const [verdict, text] of [
      ['CERTIFIED', 'certified'],
      ['NOT_CONFORMANT', 'not conformant'],
      ['INCOMPLETE', 'incomplete'],
      [null, 'not validated'],
    ] as const) {
      const svg = badgeSvg(verdict);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="20"/);
      expect(svg).toContain(`role="img" aria-label="agent readiness: ${text}"`);
      expect(svg).toContain(`<title>agent readiness: ${text}</title>`);
    }
    expect(badgeSvg(null).length).toBeGreaterThan(badgeSvg('CERTIFIED').length);
  });

  it('adds the agent-readiness level of a validated domain, wider by its text', () => {
    const svg = badgeSvg('NOT_CONFORMANT', 3);
    expect(svg).toContain('aria-label="agent readiness: not conformant · level 3"');
    expect(svg).toContain('>not conformant · level 3</text>');
    const width = (s: string) => Number(/width="(\d+)"/.exec(s)![1]);
    expect(width(svg)).toBeGreaterThan(width(badgeSvg('NOT_CONFORMANT')));
    expect(badgeSvg(null, 3)).toBe(badgeSvg(null));
  });
});
