// `dvs scan <domain> [--full] [--json] [--save-observations <file>] [--baseline <report.json>] [--junit <file>]
// [--trace]`: probes a domain and judges it; with --trace, says on stderr what the scan asked of the network. Exit 0 for CERTIFIED, 3 otherwise; with a baseline, the CI gate decides instead:
// 4 when a rule that passed in the baseline fails now (named on stderr), 0 when none does.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { providers } from '../../plugins/index.ts';
import { DomainError, normaliseDomain } from '../lib/domain-name.ts';
import { summarise } from '../engine/index.ts';
import { loadRunRuleset } from '../catalogue/compiled-ruleset.ts';
import { lazyLogger } from '../lib/log.ts';
import { createScanner } from '../service/scanner.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { loadAgentKey } from '../signing/keys.ts';
import { regressions } from '../lib/report-diff.ts';
import { UsageError, type CliIo } from './io.ts';
import { readJudgement } from './judgement-file.ts';
import { junitXml } from './junit.ts';
import { formatChanges } from './rule-changes.ts';
import { probeProgress } from './progress.ts';
import { formatTrace } from './scan-trace.ts';

export const USAGE =
  'dvs scan <domain> [--full] [--json] [--save-observations <file>] [--baseline <report.json>] [--junit <file>] [--trace]';

/** The CI gate's exit code: a rule that passed in the baseline fails now. */
export const EXIT_REGRESSED = 4;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      full: { type: 'boolean' },
      json: { type: 'boolean' },
      'save-observations': { type: 'string' },
      baseline: { type: 'string' },
      junit: { type: 'string' },
      trace: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  let domain: string;
  try {
    domain = normaliseDomain(positionals[0], io.config.extraSuffixes).ascii;
  } catch (err) {
    if (err instanceof DomainError) throw new UsageError(err.message);
    throw err;
  }
  // The baseline is read before the scan, so a wrong file fails at once, not after a minute of probing.
  const baseline = values.baseline === undefined ? null : readJudgement(values.baseline);
  if (baseline && baseline.domain !== domain) {
    throw new UsageError(`${values.baseline}: the baseline is a judgement of ${baseline.domain}, not of ${domain}`);
  }
  const ruleset = loadRunRuleset(io.config.cacheDir);
  const log = lazyLogger({ logLevel: process.env.DVS_LOG_LEVEL ?? 'warn' });
  const agentKey = io.config.net.agentSigning ? await loadAgentKey(io.config.dataDir) : null;
  const scanner = createScanner({ config: io.config, ruleset, providers, log, agentKey, trace: values.trace });
  const tier = values.full ? 'full' : 'quick';
  const preflight = await scanner.preflight(domain, tier);
  if (!preflight.ok) {
    io.stderr.write(`${preflight.text}\n`);
    return 1;
  }
  const progress = probeProgress(domain, io.stderr);
  const { evidence, report } = await scanner
    .scan(domain, tier, { onProgress: (p) => progress.onProgress(p), preflight })
    .finally(() => progress.done());
  if (values.trace && preflight.net)
    io.stderr.write(formatTrace(tier, ruleset.rules, preflight.net.trace(), preflight.net.httpConnections()) + '\n');
  const saveTo = values['save-observations'];
  if (saveTo) writeFileSync(saveTo, evidence + '\n');
  io.stdout.write(values.json ? canonicalJson(report) + '\n' : summarise(report, ruleset) + '\n');
  const regressed = baseline ? regressions(baseline, report) : [];
  if (values.junit) writeFileSync(values.junit, junitXml(report, { regressed: new Set(regressed.map((c) => c.id)) }));
  if (!baseline) return report.verdict === 'CERTIFIED' ? 0 : 3;
  if (regressed.length === 0) {
    io.stderr.write(`baseline ${baseline.observed_at}: no rule that passed then fails now\n`);
    return 0;
  }
  const n = regressed.length;
  io.stderr.write(
    [
      `baseline ${baseline.observed_at}: ${n} rule${n === 1 ? '' : 's'} passed then and fail now:`,
      ...formatChanges(regressed),
    ].join('\n') + '\n',
  );
  return EXIT_REGRESSED;
}
