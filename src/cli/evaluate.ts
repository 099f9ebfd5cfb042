// `dvs evaluate <observations.json> [--full] [--json]`: re-judges saved evidence offline.
import { parseArgs } from 'node:util';
import { evaluate, summarise, type Observations } from '../engine/index.ts';
import { loadRunRuleset } from '../catalogue/compiled-ruleset.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { readJsonFile, UsageError, type CliIo } from './io.ts';

export const USAGE = 'dvs evaluate <observations.json> [--full] [--json]';

/** Reads a saved observations document, refusing what is not one. */
export function readObservations(file: string): Observations {
  const d = readJsonFile(file) as Partial<Observations> | null;
  if (
    !d ||
    typeof d !== 'object' ||
    typeof d.target?.domain !== 'string' ||
    typeof d.target?.observed_at !== 'string' ||
    typeof d.probes !== 'object'
  ) {
    throw new UsageError(`${file}: not an observations document (needs target.domain, target.observed_at and probes)`);
  }
  return d as Observations;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { full: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const observations = readObservations(positionals[0]!);
  const ruleset = loadRunRuleset(io.config.cacheDir);
  const invalid = ruleset.schemas.validateDocument(
    Object.fromEntries(
      Object.entries(observations).filter(
        ([k]) => k === 'target' || k === 'probes' || ruleset.schemas.namespaces.has(k),
      ),
    ),
    'complete',
  );
  if (invalid) io.stderr.write(`warning: the observations do not match the current schemas: ${invalid}\n`);
  const report = evaluate(observations, ruleset, values.full ? 'full' : 'quick');
  io.stdout.write(values.json ? canonicalJson(report) + '\n' : summarise(report, ruleset) + '\n');
  return 0;
}
