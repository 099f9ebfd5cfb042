// `dvs scan <domain> [--full] [--json] [--save-observations <file>]`: probes a domain and judges it.
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
import { UsageError, type CliIo } from './io.ts';
import { probeProgress } from './progress.ts';

export const USAGE = 'dvs scan <domain> [--full] [--json] [--save-observations <file>]';

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { full: { type: 'boolean' }, json: { type: 'boolean' }, 'save-observations': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  let domain: string;
  try {
    domain = normaliseDomain(positionals[0], io.config.extraSuffixes).ascii;
  } catch (err) {
    if (err instanceof DomainError) throw new UsageError(err.message);
    throw err;
  }
  const ruleset = loadRunRuleset(io.config.cacheDir);
  const log = lazyLogger({ logLevel: process.env.DVS_LOG_LEVEL ?? 'warn' });
  const agentKey = io.config.net.agentSigning ? await loadAgentKey(io.config.dataDir) : null;
  const scanner = createScanner({ config: io.config, ruleset, providers, log, agentKey });
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
  const saveTo = values['save-observations'];
  if (saveTo) writeFileSync(saveTo, evidence + '\n');
  io.stdout.write(values.json ? canonicalJson(report) + '\n' : summarise(report, ruleset) + '\n');
  return report.verdict === 'CERTIFIED' ? 0 : 3;
}
