// `dvs diff <a> <b> [--json]`: the rules whose outcome changed from one report or certificate to another, with
// what each read. Exit 0 when no rule changed, 1 when some did (as diff(1) does), 2 for a usage problem.
import { parseArgs } from 'node:util';
import { canonicalJson } from '../lib/canonical-json.ts';
import { changedRules } from '../lib/report-diff.ts';
import { UsageError, type CliIo } from './io.ts';
import { readJudgement } from './judgement-file.ts';
import { describeJudgement, formatChanges } from './rule-changes.ts';

export const USAGE = 'dvs diff <a.json> <b.json> [--json]';

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (positionals.length !== 2) throw new UsageError(USAGE);
  const [a, b] = positionals.map(readJudgement) as [ReturnType<typeof readJudgement>, ReturnType<typeof readJudgement>];
  if (a.domain !== b.domain) io.stderr.write(`warning: comparing two domains (${a.domain} and ${b.domain})\n`);
  const changed = changedRules(a, b);
  if (values.json) {
    const side = (j: typeof a) => ({
      domain: j.domain,
      observed_at: j.observed_at,
      verdict: j.verdict,
      score: j.score,
      ruleset_version: j.ruleset.version,
    });
    io.stdout.write(canonicalJson({ a: side(a), b: side(b), changed }) + '\n');
  } else {
    const head = [`a: ${describeJudgement(a)}`, `b: ${describeJudgement(b)}`];
    const body =
      changed.length === 0
        ? ['no rule changed outcome']
        : [`${changed.length} rule${changed.length === 1 ? '' : 's'} changed outcome:`, ...formatChanges(changed)];
    io.stdout.write([...head, ...body].join('\n') + '\n');
  }
  return changed.length === 0 ? 0 : 1;
}
