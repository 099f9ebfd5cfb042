// `dvs rules check | docs | lock`: the rule author's and auditor's tools over rules/.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadRuleset, RulesetError, type Ruleset } from '../engine/ruleset.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { renderCatalogue } from '../engine/catalogue.ts';
import { lockProblems, readLock, runExamples, weakRuleGate, writeLock } from '../engine/rule-checks.ts';
import { unstyledRuleFiles } from '../engine/rule-format.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = `dvs rules check [--rules <dir>] [--fix]
                                  validate every rule, run every example, the weak-rule gate, the lock and the
                                  files' style; --fix rewrites files that are not in the house style
dvs rules docs  [--rules <dir>]   write docs/rules.md from the rule files
dvs rules lock  [--rules <dir>]   write rules/ruleset.lock.json after a deliberate version bump`;

function load(rulesDir: string, io: CliIo): Ruleset | null {
  try {
    return loadRuleset({ rulesDir });
  } catch (err) {
    if (!(err instanceof RulesetError)) throw err;
    io.stderr.write(`✗ ${err.message}\n`);
    return null;
  }
}

function check(ruleset: Ruleset, rulesDir: string, io: CliIo, fix: boolean): number {
  let failures = 0;
  const unstyled = unstyledRuleFiles(
    ruleset.rules.map((r) => r.file),
    rulesDir,
    fix,
  );
  for (const file of unstyled) {
    if (fix) {
      io.stdout.write(`  restyled ${file}\n`);
      continue;
    }
    failures++;
    io.stderr.write(`✗ ${file}: not in the house style (\`dvs rules check --fix\` rewrites it)\n`);
  }
  const runs = runExamples(ruleset);
  for (const r of runs.filter((x) => x.got !== x.expected)) {
    if (r.todo) {
      io.stdout.write(`  todo ${r.rule} / ${r.example}: expected ${r.expected}, got ${r.got}\n`);
      continue;
    }
    failures++;
    io.stderr.write(
      `✗ ${r.rule} / example "${r.example}": expected ${r.expected}, got ${r.got}${r.reason ? ` (${r.reason})` : ''}\n`,
    );
  }
  const gate = weakRuleGate(ruleset);
  for (const id of gate.refused) {
    failures++;
    io.stderr.write(
      `✗ ${id}: required rule passes on hollow evidence (every fact null or empty); test facts explicitly, or state hollow_pass_reason\n`,
    );
  }
  const lockFile = path.join(rulesDir, 'ruleset.lock.json');
  const lock = readLock(lockFile);
  const lockIssues = lock ? lockProblems(ruleset, lock) : ['rules/ruleset.lock.json is missing; run `dvs rules lock`'];
  for (const p of lockIssues) {
    failures++;
    io.stderr.write(`✗ ${p}\n`);
  }

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
  const todo = runs.filter((r) => r.todo).length;
  io.stdout.write(
    `\n${runs.length} examples run (${todo} todo); weak-rule gate: ${gate.refused.length} refused, ${gate.excused.length} excused`,
  );
  io.stdout.write(
    `; ${gate.yesMan.length} rules pass on the yes-man document (review: \`dvs rules check --yes-man\`)\n`,
  );
  if (failures) {
    io.stderr.write(`\n✗ ${failures} problem(s)\n`);
    return 1;
  }
  io.stdout.write(`✓ ${ruleset.rules.length} rules valid\n`);
  return 0;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { rules: { type: 'string' }, 'yes-man': { type: 'boolean' }, fix: { type: 'boolean' } },
  });
  const rulesDir = path.resolve(values.rules ?? path.join(REPO_ROOT, 'rules'));
  const sub = positionals[0];
  if (!sub || !['check', 'docs', 'lock'].includes(sub)) throw new UsageError(USAGE);
  const ruleset = load(rulesDir, io);
  if (!ruleset) return 1;
  if (sub === 'check') {
    if (values['yes-man']) for (const id of weakRuleGate(ruleset).yesMan) io.stdout.write(`${id}\n`);
    return check(ruleset, rulesDir, io, values.fix === true);
  }
  if (sub === 'docs') {
    const file = path.join(path.dirname(rulesDir), 'docs', 'rules.md');
    const text = renderCatalogue(ruleset, rulesDir);
    const unchanged = existsSync(file) && readFileSync(file, 'utf8') === text;
    if (!unchanged) writeFileSync(file, text);
    io.stdout.write(
      `${unchanged ? 'unchanged' : 'wrote'} ${path.relative(process.cwd(), file)} (${ruleset.rules.length} rules)\n`,
    );
    return 0;
  }
  writeLock(path.join(rulesDir, 'ruleset.lock.json'), ruleset);
  io.stdout.write(`wrote rules/ruleset.lock.json for ruleset ${ruleset.version} (${ruleset.rules.length} rules)\n`);
  return 0;
}
