// The latest Quick Scan of a domain as a person reads it: the verdict and score, then every category with what
// failed or could not be evaluated (what was seen, why it matters, how to fix it, all from the rule files) and
// what passed. A read model only: it looks in the Quick Scan cache and never starts a scan.
import type { LoadedRule, Report, RuleResult } from '../engine/types.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { Level, Outcome, Verdict } from '../lib/judgement.ts';
import type { QuickScans } from './quick-scans.ts';

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
  findings: FindingView[];
  /** Checks that passed or did not apply. */
  others: CheckView[];
}

export interface ReportView {
  domain: string;
  verdict: Verdict;
  score: number;
  observedAt: string;
  ruleset: { version: string; digest: string };
  counts: Record<Outcome, number>;
  /** Probes that failed or timed out, with their status. */
  unfinishedProbes: [string, string][];
  /** Categories with findings first, then by name. */
  categories: CategoryView[];
}

export type LatestQuickScan =
  | { kind: 'report'; view: ReportView }
  /** The scan ran but could not judge the domain (it does not resolve, or only to refused addresses). */
  | { kind: 'not_judged'; domain: string; text: string };

const LEVEL_ORDER: Record<Level, number> = { required: 0, recommended: 1, informational: 2 };
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function observedOf(result: RuleResult): unknown {
  return 'observed' in result ? (result as RuleResult & { observed?: unknown }).observed : undefined;
}

/** An absent value or an empty record: the check saw nothing worth showing, so the rule's text speaks. */
function nothingIn(observed: unknown): boolean {
  if (observed === undefined) return true;
  return typeof observed === 'object' && observed !== null && Object.keys(observed).length === 0;
}

function finding(result: RuleResult, rule: LoadedRule | undefined): FindingView {
  const view: FindingView = {
    id: result.id,
    version: result.version,
    title: rule?.title ?? result.id,
    level: result.level,
    outcome: result.outcome as 'fail' | 'error',
    rationale: rule?.rationale.trim() ?? '',
    remediation: rule?.remediation.trim() ?? '',
    references: rule?.references ?? [],
  };
  const observed = observedOf(result);
  if (!nothingIn(observed)) view.observed = observed;
  if (result.reason !== undefined) view.reason = result.reason;
  return view;
}

function severity(f: FindingView): number {
  return LEVEL_ORDER[f.level] * 2 + (f.outcome === 'fail' ? 0 : 1);
}

/** Groups a report's results by their rules' categories. */
export function reportView(report: Report, ruleset: Pick<Ruleset, 'byId'>): ReportView {
  const groups = new Map<string, CategoryView>();
  for (const result of report.results) {
    const rule = ruleset.byId.get(result.id);
    const category = rule?.category ?? result.id.split('.')[0]!;
    let group = groups.get(category);
    if (!group) groups.set(category, (group = { category, findings: [], others: [] }));
    if (result.outcome === 'fail' || result.outcome === 'error') group.findings.push(finding(result, rule));
    else
      group.others.push({
        id: result.id,
        title: rule?.title ?? result.id,
        level: result.level,
        outcome: result.outcome,
      });
  }
  for (const g of groups.values()) {
    g.findings.sort((a, b) => severity(a) - severity(b) || byName(a.id, b.id));
    g.others.sort((a, b) => byName(a.id, b.id));
  }
  const categories = [...groups.values()].sort(
    (a, b) => Number(b.findings.length > 0) - Number(a.findings.length > 0) || byName(a.category, b.category),
  );
  return {
    domain: report.domain,
    verdict: report.verdict,
    score: report.score,
    observedAt: report.observed_at,
    ruleset: report.ruleset,
    counts: report.counts,
    unfinishedProbes: Object.entries(report.probes).filter(([, s]) => s === 'error' || s === 'timeout'),
    categories,
  };
}

export class QuickScanReports {
  constructor(
    private readonly quickScans: Pick<QuickScans, 'cached'>,
    private readonly ruleset: Pick<Ruleset, 'byId'>,
  ) {}

  /** The domain's Quick Scan still in the cache, or null when there is none (nothing is scanned here). */
  async latest(domain: string): Promise<LatestQuickScan | null> {
    const cached = await this.quickScans.cached(domain);
    if (!cached) return null;
    if (!cached.report) return { kind: 'not_judged', domain, text: cached.result.content[0]?.text ?? '' };
    return { kind: 'report', view: reportView(cached.report, this.ruleset) };
  }
}
