// The latest Quick Scan of a domain as a person reads it: the verdict and score, a line per subject checked, then
// every category (named for people, scored by the report's formula, ordered by what failed) with what failed or
// could not be evaluated (what was seen, why it matters, how to fix it, all from the rule files) and what passed,
// and what the Quick Scan left to a Full Validation. A read model only: it looks in the Quick Scan cache and never
// starts a scan.
import type { AgentReadiness, LoadedRule, Report, RuleResult } from '../engine/types.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { scoreOf, verdictOf } from '../engine/verdict.ts';
import { categoryName } from '../lib/categories.ts';
import type { Excerpt, Excerpts } from './evidence-excerpts.ts';
import type { Level, Outcome, Tier, Verdict } from '../lib/judgement.ts';
import type { QuickScans } from './quick-scans.ts';
import { ASCII_WHITESPACE, trimOf } from '../lib/trim.ts';

export interface FindingView {
  id: string;
  version: number;
  title: string;
  level: Level;
  outcome: 'fail' | 'error';
  /** What the check saw, as the engine recorded it on the result; absent when the result carries none. */
  observed?: unknown;
  /** For an error: which observation was missing or which probe failed. */
  reason?: string;
  /** What the check saw as the site sent it (header lines, records, a document's status line). */
  excerpt?: Excerpt;
  rationale: string;
  remediation: string;
  references: string[];
}

export interface CheckView {
  id: string;
  title: string;
  level: Level;
  outcome: Outcome;
}

export interface CategoryView {
  category: string;
  /** The group's name and what it covers, for people (src/lib/categories.ts). */
  name: string;
  about: string;
  /** The report's score formula over the category's results; null when none of its scored rules applied. */
  score: number | null;
  verdict: Verdict;
  findings: FindingView[];
  /** Checks that passed or did not apply. */
  others: CheckView[];
}

/** One line of the at-a-glance table: a subject (a rule id's first two parts, such as `headers.hsts`). */
export interface GlanceRow {
  subject: string;
  category: string;
  /** The title of the subject's most telling rule: its worst finding, or its first required rule. */
  title: string;
  /** The rule that title is of; a finding is on the page under this id. */
  id: string;
  outcome: 'pass' | 'fail' | 'error';
  level: Level;
  /** How many of the subject's rules applied, and how many of those failed or could not be evaluated. */
  checks: number;
  findings: number;
  /** What that rule read, in one short line. */
  seen: string;
}

/** What a Quick Scan left to a Full Validation, from the catalogue: the full-tier rules, by category. */
export interface CoverageView {
  ran: number;
  catalogue: number;
  notChecked: { category: string; name: string; rules: number; required: number; titles: string[] }[];
}

export interface ReportView {
  domain: string;
  tier: Tier;
  verdict: Verdict;
  score: number;
  observedAt: string;
  ruleset: { version: string; digest: string };
  counts: Record<Outcome, number>;
  /** Probes that failed or timed out, with their status. */
  unfinishedProbes: [string, 'error' | 'timeout'][];
  /** The subjects the scan checked, what failed first. */
  glance: GlanceRow[];
  /** Categories by what failed: required findings, then any findings, then the lower score, then by name. */
  categories: CategoryView[];
  /** For a Quick Scan: what it did not check. */
  coverage: CoverageView | null;
  /** The agent-readiness level the report's results reach, when the report carries it. */
  readiness: AgentReadiness | null;
}

export type LatestQuickScan =
  | { kind: 'report'; view: ReportView }
  /** The scan ran but could not judge the domain (it does not resolve, or only to refused addresses). */
  | { kind: 'not_judged'; domain: string; text: string };

const LEVEL_ORDER: Record<Level, number> = { required: 0, recommended: 1, informational: 2 };
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A seen value is cut to this many characters in the at-a-glance table. */
const SEEN_LIMIT = 80;

function observedOf(result: RuleResult): unknown {
  return 'observed' in result ? (result as RuleResult & { observed?: unknown }).observed : undefined;
}

/** An absent value or an empty record: the check saw nothing worth showing, so the rule's text speaks. */
function nothingIn(observed: unknown): boolean {
  if (observed === undefined) return true;
  return typeof observed === 'object' && observed !== null && Object.keys(observed).length === 0;
}

function finding(result: RuleResult, rule: LoadedRule | undefined, excerpt: Excerpt | undefined): FindingView {
  const view: FindingView = {
    id: result.id,
    version: result.version,
    title: rule?.title ?? result.id,
    level: result.level,
    outcome: result.outcome as 'fail' | 'error',
    rationale: trimOf(rule?.rationale ?? '', ASCII_WHITESPACE),
    remediation: trimOf(rule?.remediation ?? '', ASCII_WHITESPACE),
    references: rule?.references ?? [],
  };
  const observed = observedOf(result);
  if (!nothingIn(observed)) view.observed = observed;
  if (result.reason !== undefined) view.reason = result.reason;
  if (excerpt) view.excerpt = excerpt;
  return view;
}

/**
 * How telling a result is: findings by level, a failure before an error of the same level, then passes by level
 * (a subject's line names its worst finding, or its first required rule when all passed).
 */
function weight(r: Pick<RuleResult, 'level' | 'outcome'>): number {
  if (r.outcome === 'fail' || r.outcome === 'error') return LEVEL_ORDER[r.level] * 2 + (r.outcome === 'fail' ? 0 : 1);
  return 6 + LEVEL_ORDER[r.level];
}

const cut = (text: string) => (text.length > SEEN_LIMIT ? `${text.slice(0, SEEN_LIMIT)}…` : text);

/** What the rule saw in one short line: the first line the site sent, or what it did not send, or a fact value. */
function seenOf(result: RuleResult, excerpt: Excerpt | undefined): string {
  if (result.outcome === 'error') return result.reason ?? 'not evaluated';
  const sent = excerpt ? (excerpt.lines[0] ?? excerpt.absent) : undefined;
  if (sent !== undefined) return cut(sent);
  const observed = observedOf(result);
  if (nothingIn(observed) || typeof observed !== 'object' || observed === null) return '';
  const entries = Object.entries(observed as Record<string, unknown>);
  const [path, value] = entries.find(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)) ?? entries[0]!;
  return cut(`${path.split('.').slice(-2).join('.')}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

const subjectOf = (id: string) => id.split('.').slice(0, 2).join('.');

/** One line per subject with a scored rule that applied, failures first, then by category and subject. */
function glanceOf(
  report: Report,
  ruleset: Pick<Ruleset, 'byId'>,
  order: Map<string, number>,
  excerpt: (id: string) => Excerpt | undefined,
): GlanceRow[] {
  const subjects = new Map<string, RuleResult[]>();
  for (const r of report.results) {
    if (r.outcome === 'not_applicable' || r.level === 'informational') continue;
    const key = subjectOf(r.id);
    subjects.set(key, [...(subjects.get(key) ?? []), r]);
  }
  const rows: GlanceRow[] = [];
  for (const [subject, results] of subjects) {
    const lead = [...results].sort((a, b) => weight(a) - weight(b) || byName(a.id, b.id))[0]!;
    const rule = ruleset.byId.get(lead.id);
    rows.push({
      subject,
      category: rule?.category ?? lead.id.split('.')[0]!,
      title: rule?.title ?? lead.id,
      id: lead.id,
      outcome: lead.outcome === 'not_applicable' ? 'pass' : lead.outcome,
      level: lead.level,
      checks: results.length,
      findings: results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').length,
      seen: seenOf(lead, excerpt(lead.id)),
    });
  }
  return rows.sort(
    (a, b) =>
      weight(a) - weight(b) ||
      (order.get(a.category) ?? 0) - (order.get(b.category) ?? 0) ||
      byName(a.subject, b.subject),
  );
}

/** The full-tier rules a Quick Scan did not run, by category, required ones first in each. */
export function coverageOf(report: Report, ruleset: Pick<Ruleset, 'rules'>): CoverageView | null {
  if (report.tier !== 'quick') return null;
  const groups = new Map<string, LoadedRule[]>();
  for (const rule of ruleset.rules) {
    if (rule.tier !== 'full') continue;
    groups.set(rule.category, [...(groups.get(rule.category) ?? []), rule]);
  }
  const notChecked = [...groups].map(([category, rules]) => ({
    category,
    name: categoryName(category).name,
    rules: rules.length,
    required: rules.filter((r) => r.level === 'required').length,
    titles: [...rules]
      .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || byName(a.id, b.id))
      .map((r) => r.title),
  }));
  notChecked.sort((a, b) => b.required - a.required || b.rules - a.rules || byName(a.name, b.name));
  return { ran: report.results.length, catalogue: ruleset.rules.length, notChecked };
}

/**
 * Groups a report's results by their rules' categories, scores each group, and lines up the subjects; `excerpts`
 * (kept beside the report when it was made) show what each check saw as the site sent it.
 */
export function reportView(report: Report, ruleset: Pick<Ruleset, 'byId' | 'rules'>, excerpts?: Excerpts): ReportView {
  const excerpt = (id: string): Excerpt | undefined => {
    const at = excerpts?.byRule[id];
    return at === undefined ? undefined : excerpts!.list[at];
  };
  const groups = new Map<string, { view: CategoryView; results: RuleResult[] }>();
  for (const result of report.results) {
    const rule = ruleset.byId.get(result.id);
    const category = rule?.category ?? result.id.split('.')[0]!;
    let group = groups.get(category);
    if (!group) {
      const { name, about } = categoryName(category);
      const view: CategoryView = { category, name, about, score: null, verdict: 'CERTIFIED', findings: [], others: [] };
      groups.set(category, (group = { view, results: [] }));
    }
    group.results.push(result);
    if (result.outcome === 'fail' || result.outcome === 'error')
      group.view.findings.push(finding(result, rule, excerpt(result.id)));
    else
      group.view.others.push({
        id: result.id,
        title: rule?.title ?? result.id,
        level: result.level,
        outcome: result.outcome,
      });
  }
  for (const { view, results } of groups.values()) {
    view.findings.sort((a, b) => weight(a) - weight(b) || byName(a.id, b.id));
    view.others.sort((a, b) => byName(a.id, b.id));
    view.verdict = verdictOf(results);
    const scored = results.some((r) => r.level !== 'informational' && r.outcome !== 'not_applicable');
    view.score = scored ? scoreOf(results) : null;
  }
  const requiredFindings = (c: CategoryView) => c.findings.filter((f) => f.level === 'required').length;
  const categories = [...groups.values()]
    .map((g) => g.view)
    .sort(
      (a, b) =>
        requiredFindings(b) - requiredFindings(a) ||
        b.findings.length - a.findings.length ||
        (a.score ?? 101) - (b.score ?? 101) ||
        byName(a.name, b.name),
    );
  const order = new Map(categories.map((c, i) => [c.category, i]));
  return {
    domain: report.domain,
    tier: report.tier,
    verdict: report.verdict,
    score: report.score,
    observedAt: report.observed_at,
    ruleset: report.ruleset,
    counts: report.counts,
    unfinishedProbes: Object.entries(report.probes).filter(
      (entry): entry is [string, 'error' | 'timeout'] => entry[1] === 'error' || entry[1] === 'timeout',
    ),
    glance: glanceOf(report, ruleset, order, excerpt),
    categories,
    coverage: coverageOf(report, ruleset),
    readiness: report.agent_readiness ?? null,
  };
}

export class QuickScanReports {
  constructor(
    private readonly quickScans: Pick<QuickScans, 'cached'>,
    private readonly ruleset: Pick<Ruleset, 'byId' | 'rules'>,
  ) {}

  /** The domain's Quick Scan still in the cache, or null when there is none (nothing is scanned here). */
  async latest(domain: string): Promise<LatestQuickScan | null> {
    const cached = await this.quickScans.cached(domain);
    if (!cached) return null;
    if (!cached.report) return { kind: 'not_judged', domain, text: cached.result.content[0]?.text ?? '' };
    return { kind: 'report', view: reportView(cached.report, this.ruleset, cached.excerpts) };
  }
}
