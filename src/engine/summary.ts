// The readable summary of a report: what a person or an agent reads first. Derived from the report and
// the rule titles only, so it is as deterministic as the report.
import { explainResult } from './explain.ts';
import type { Ruleset } from './ruleset.ts';
import type { AgentReadiness, Report, RuleResult } from './types.ts';
import { ASCII_WHITESPACE, trimOf } from '../lib/trim.ts';

const LEVEL_ORDER = { required: 0, recommended: 1, informational: 2 } as const;

/** Failures and errors that matter most first: required before recommended, then by id. */
export function topFindings(report: Report, limit: number): RuleResult[] {
  return report.results
    .filter((r) => (r.outcome === 'fail' || r.outcome === 'error') && r.level !== 'informational')
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
}

/**
 * What a Quick Scan could not see: it runs the quick tier only, so its verdict predicts the Full Validation's
 * without promising it. Says how many required checks ran and which categories of required checks it left out.
 */
export function quickScope(ruleset: Ruleset): string[] {
  const required = ruleset.rules.filter((r) => r.level === 'required');
  const ran = required.filter((r) => r.tier === 'quick').length;
  const others = ruleset.rules.filter((r) => r.level !== 'required' && r.tier === 'full').length;
  const left = [...new Set(required.filter((r) => r.tier === 'full').map((r) => r.category))].sort();
  return [
    `Indicative: this Quick Scan ran ${ran} of the ${required.length} required checks, those that cost a few requests.`,
    `A Full Validation adds the other ${required.length - ran} (${left.join(', ')}), ${others} more recommended and informational checks, and a signed certificate.`,
  ];
}

/** The level beside the verdict, with what the next one needs. */
export function readinessLine(r: AgentReadiness): string {
  const level = `Agent-readiness level ${r.level} of 5 (${r.name}${r.partial ? ', at least: some checks were not run' : ''})`;
  return r.next ? `${level}; level ${r.next.level} needs ${r.next.needs.join(', ')}` : level;
}

export function summarise(report: Report, ruleset: Ruleset, limit = 10): string {
  const c = report.counts;
  const kind = report.tier === 'quick' ? 'Quick Scan (indicative)' : 'Full Validation';
  const lines = [
    `${kind} of ${report.domain}: ${report.verdict}, score ${report.score}/100`,
    `${report.results.length} checks: ${c.pass} passed, ${c.fail} failed, ${c.error} could not be evaluated, ${c.not_applicable} not applicable`,
    `Observed at ${report.observed_at}; ruleset ${report.ruleset.version} (${report.ruleset.digest.slice(0, 12)})`,
  ];
  if (report.agent_readiness) lines.push(readinessLine(report.agent_readiness));
  if (report.tier === 'quick') lines.push(...quickScope(ruleset));
  const failedProbes = Object.entries(report.probes).filter(([, s]) => s !== 'ok' && s !== 'skipped');
  if (failedProbes.length)
    lines.push(`Probes that did not finish: ${failedProbes.map(([n, s]) => `${n} (${s})`).join(', ')}`);
  const findings = topFindings(report, limit);
  if (findings.length) {
    lines.push('', 'Top findings:');
    for (const f of findings) {
      const rule = ruleset.byId.get(f.id);
      const what =
        f.outcome === 'error' ? `not evaluated: ${f.reason ?? 'missing evidence'}` : `failed: ${rule?.title ?? f.id}`;
      lines.push(`- [${f.level}] ${f.id} ${what}`);
      if (rule) lines.push(...explainResult(f, rule.check).map((l) => `  ${l}`));
      if (f.outcome === 'fail' && rule)
        lines.push(`  Fix: ${trimOf(rule.remediation, ASCII_WHITESPACE).split('\n')[0]}`);
    }
  }
  return lines.join('\n');
}
