// `dvs rules new | check | docs | lock`: the rule author's and auditor's tools over rules/.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadRuleset, RulesetError, type CheckedRuleset } from '../catalogue/load-ruleset.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { renderCatalogue } from '../catalogue/rules-doc.ts';
import { reviewCatalogue } from '../catalogue/catalogue-problems.ts';
import { weakRuleGate, writeLock } from '../catalogue/rule-checks.ts';
import { UsageError, type CliIo } from './io.ts';
import { newRuleFile } from './rule-template.ts';

export const USAGE = `dvs rules new <id> [--level <level>] [--tier quick|full] [--requires <path>]...
                                  write rules/<id as path>.yaml with every field and a pass and a fail example
dvs rules check [--rules <dir>] [--fix]
                                  everything the test suite checks about rules: schema, examples, the weak-rule
                                  gate, the version lock, the house style and docs/rules.md; --fix restyles
                                  files, rewrites a stale lock (not a needed version bump) and the docs
dvs rules docs  [--rules <dir>]   write docs/rules.md from the rule files
dvs rules lock  [--rules <dir>]   write rules/ruleset.lock.json after a deliberate version bump`;

function load(rulesDir: string, io: CliIo): CheckedRuleset | null {
  try {
    return loadRuleset({ rulesDir });
  } catch (err) {
    if (!(err instanceof RulesetError)) throw err;
    io.stderr.write(`✗ ${err.message}\n`);
    return null;
  }
}

const docsFileOf = (rulesDir: string) => path.join(path.dirname(rulesDir), 'docs', 'rules.md');

function printSummary(ruleset: CheckedRuleset, io: CliIo): void {
  const categories = [...new Set(ruleset.rules.map((r) => r.category))].sort();
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  io.stdout.write(`ruleset ${ruleset.version}  digest ${ruleset.digest}\n\n`);
  io.stdout.write(
    `${pad('category', 12)}${pad('rules', 7)}${pad('required', 10)}${pad('recommended', 13)}${pad('informational', 15)}quick\n`,
  );
  for (const c of [...categories, 'all']) {
    const rs = c === 'all' ? ruleset.rules : ruleset.rules.filter((r) => r.category === c);
    const n = (l: string) => rs.filter((r) => r.level === l).length;
    io.stdout.write(
      `${pad(c, 12)}${pad(rs.length, 7)}${pad(n('required'), 10)}${pad(n('recommended'), 13)}${pad(n('informational'), 15)}${rs.filter((r) => r.tier === 'quick').length}\n`,
    );
  }
}

function check(ruleset: CheckedRuleset, rulesDir: string, io: CliIo, fix: boolean): number {
  const review = reviewCatalogue(ruleset, { rulesDir, docsFile: docsFileOf(rulesDir), fix });
  for (const file of review.fixed) io.stdout.write(`  rewrote ${file}\n`);
  for (const r of review.runs.filter((x) => x.todo && x.got !== x.expected)) {
    io.stdout.write(`  todo ${r.rule} / ${r.example}: expected ${r.expected}, got ${r.got}\n`);
  }
  const hint: Record<string, string> = {
    style: ' (`dvs rules check --fix` rewrites it)',
    docs: ' (`dvs rules check --fix` or `dvs rules docs` regenerates it)',
  };
  for (const p of review.problems) io.stderr.write(`✗ ${p.file}: ${p.message}${hint[p.kind] ?? ''}\n`);

  printSummary(ruleset, io);
  const todo = review.runs.filter((r) => r.todo).length;
  const { gate } = review;
  io.stdout.write(
    `\n${review.runs.length} examples run (${todo} todo); weak-rule gate: ${gate.refused.length} refused, ${gate.excused.length} excused` +
      `; ${gate.yesMan.length} rules pass on the yes-man document (review: \`dvs rules check --yes-man\`)\n`,
  );
  if (review.problems.length) {
    io.stderr.write(`\n✗ ${review.problems.length} problem(s)\n`);
    return 1;
  }
  io.stdout.write(`✓ ${ruleset.rules.length} rules valid\n`);
  return 0;
}

function writeDocs(ruleset: CheckedRuleset, rulesDir: string, io: CliIo): number {
  const file = docsFileOf(rulesDir);
  const text = renderCatalogue(ruleset, rulesDir);
  const unchanged = existsSync(file) && readFileSync(file, 'utf8') === text;
  if (!unchanged) writeFileSync(file, text);
  io.stdout.write(
    `${unchanged ? 'unchanged' : 'wrote'} ${path.relative(process.cwd(), file)} (${ruleset.rules.length} rules)\n`,
  );
  return 0;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      rules: { type: 'string' },
      'yes-man': { type: 'boolean' },
      fix: { type: 'boolean' },
      level: { type: 'string' },
      tier: { type: 'string' },
      requires: { type: 'string', multiple: true },
    },
  });
  const rulesDir = path.resolve(values.rules ?? path.join(REPO_ROOT, 'rules'));
  const sub = positionals[0];
  if (!sub || !['new', 'check', 'docs', 'lock'].includes(sub)) throw new UsageError(USAGE);
  if (sub === 'new') {
    const file = newRuleFile(rulesDir, positionals[1], values);
    io.stdout.write(`wrote ${path.relative(process.cwd(), file)}: fill in every field, then \`dvs rules check\`\n`);
    return 0;
  }
  const ruleset = load(rulesDir, io);
  if (!ruleset) return 1;
  if (sub === 'check') {
    if (values['yes-man']) for (const id of weakRuleGate(ruleset).yesMan) io.stdout.write(`${id}\n`);
    return check(ruleset, rulesDir, io, values.fix === true);
  }
  if (sub === 'docs') return writeDocs(ruleset, rulesDir, io);
  writeLock(path.join(rulesDir, 'ruleset.lock.json'), ruleset);
  io.stdout.write(`wrote rules/ruleset.lock.json for ruleset ${ruleset.version} (${ruleset.rules.length} rules)\n`);
  return 0;
}
