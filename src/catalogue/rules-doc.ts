// docs/rules.md, the catalogue auditors read: generated from the rule files (and the LEFT-OUT.md notes
// beside them), committed, and checked for staleness by the test suite.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { analyseLogic } from '../engine/logic-analysis.ts';
import type { ObservationValidation } from '../engine/ruleset.ts';
import { refTarget, type SchemaNode } from '../engine/schema-paths.ts';
import type { CheckedRuleset } from './load-ruleset.ts';
import { expand, namedBy } from './preconditions.ts';
import type { Level, LoadedRule } from '../engine/types.ts';
import { ASCII_WHITESPACE, trimEndOf, trimOf } from '../lib/trim.ts';
import { anchorSection } from './anchor-doc.ts';
import { logicTerms, logicText } from './logic-text.ts';

const LEVELS: Level[] = ['required', 'recommended', 'informational'];

function oneLine(text: string): string {
  return trimOf(text, ASCII_WHITESPACE).replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}

function leftOutNotes(rulesDir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === 'LEFT-OUT.md')
        out.push({
          file: path.relative(path.dirname(rulesDir), full),
          text: trimOf(readFileSync(full, 'utf8'), ASCII_WHITESPACE),
        });
    }
  };
  walk(rulesDir);
  return out;
}

function describe(node: SchemaNode): string | null {
  if (typeof node.schema === 'boolean') return null;
  const own = node.schema.description;
  if (typeof own === 'string') return own;
  const target = refTarget(node);
  return target ? describe(target) : null;
}

/** What each fact a rule reads means, from its schema description (null when the schema does not say). */
export function factMeanings(
  rule: LoadedRule,
  schemas: ObservationValidation,
): { path: string; meaning: string | null }[] {
  const read = [rule.when, rule.check].flatMap((logic) =>
    logic === undefined ? [] : analyseLogic(logic, schemas).rootPaths,
  );
  const meaning = (p: string): string | null => {
    const own =
      schemas
        .resolve(p)
        .map(describe)
        .find((d) => d !== null) ?? null;
    const index = /\.(\d+)$/.exec(p);
    if (own !== null || !index) return own;
    const list = meaning(p.slice(0, index.index));
    return list && `item ${index[1]} of: ${list}`;
  };
  return [...new Set([...read, ...rule.requires])].sort().map((path) => ({ path, meaning: meaning(path) }));
}

function factLines(rule: LoadedRule, schemas: ObservationValidation): string[] {
  return factMeanings(rule, schemas).map(
    ({ path, meaning }) => `  - \`${path}\`: ${meaning ? oneLine(meaning) : '(the schema does not describe it)'}`,
  );
}

const code = (text: string) => `\`${text}\``;

/** `- <label>: <logic>`, a top-level and/or of several terms as a list of them. */
function logicLines(label: string, logic: unknown): string[] {
  const { joiner, terms } = logicTerms(logic);
  if (joiner === null || terms.join(' ').length <= 80) return [`- ${label}: ${code(logicText(logic))}`];
  return [`- ${label}, ${joiner} of:`, ...terms.map((t) => `  - ${code(t)}`)];
}

/** The probes' parser notes (plugins/<probe>/PARSERS.md), relative to the repository. */
function parserNotes(rulesDir: string): string[] {
  const plugins = path.join(path.dirname(rulesDir), 'plugins');
  let probes: string[];
  try {
    probes = readdirSync(plugins).sort();
  } catch {
    return [];
  }
  return probes
    .map((probe) => path.join('plugins', probe, 'PARSERS.md'))
    .filter((file) => {
      try {
        return statSync(path.join(path.dirname(rulesDir), file)).isFile();
      } catch {
        return false;
      }
    });
}

function countRow(label: string, rules: LoadedRule[]): string {
  const by = (l: Level) => rules.filter((r) => r.level === l).length;
  const quick = rules.filter((r) => r.tier === 'quick').length;
  return `| ${label} | ${rules.length} | ${LEVELS.map(by).join(' | ')} | ${quick} |`;
}

/** Where the grammar each parser follows, and where it deliberately differs, is written down. */
function parserLine(rulesDir: string): string[] {
  const notes = parserNotes(rulesDir);
  if (notes.length === 0) return [];
  const links = notes.map((n) => `[${n}](../${n})`).join(', ');
  return [
    `The grammar each probe's parsers follow, and where they deliberately differ (with the reason): ${links}.`,
    '',
  ];
}

/** How the score is computed (src/engine/verdict.ts), with worked examples. */
const SCORE_LINES = [
  '## The score',
  '',
  'A report and a certificate carry a score from 0 to 100 beside the verdict, computed by `dvs-engine/2.0` from the',
  "rules' outcomes alone (integers only, so the same outcomes give the same score everywhere). It says what the",
  'verdict says: **50 or more exactly when the verdict is CERTIFIED**.',
  '',
  '- CERTIFIED (every applicable required rule passes): `50 + floor(50 × P / A)`, where A is the number of',
  '  applicable recommended rules and P how many of them pass; 100 when none applies. 90 to 100: at most a fifth',
  '  of the recommended rules fail.',
  '- NOT_CONFORMANT or INCOMPLETE (a required rule fails or could not be evaluated): `floor(49 × E / W)`, where W',
  '  weighs every applicable required rule 3 and recommended rule 1, and E weighs those that pass the same way. A',
  '  required rule that does not pass caps it at 48, however much else passes.',
  '',
  'An `error` outcome counts as not passed; `not_applicable` and informational rules count for nothing. Examples:',
  'every rule passes: 100; certified with 3 of 20 recommended rules failing: `50 + floor(50 × 17 / 20)` = 92; one',
  'required failure among 93 required and 178 recommended rules that apply: `floor(49 × 454 / 457)` = 48.',
  'The report page gives each category the same formula over its own rules (its gauge). Before `dvs-engine/2.0`',
  'the score was the weighted share alone, so a required failure could read 97/100 beside NOT_CONFORMANT.',
  '',
];

const rulesCount = (n: number) => `${n} ${n === 1 ? 'rule' : 'rules'}`;

/** Every named precondition: its name, what it means, its logic and how many rules name it. */
function preconditionLines(ruleset: CheckedRuleset): string[] {
  const { declared, written } = ruleset.preconditions;
  if (declared.size === 0) return [];
  const users = namedBy(written, declared);
  return [
    '## Named preconditions',
    '',
    'A condition many rules apply under is declared once, in `rules/preconditions.yaml`, and a rule names it in its',
    '`when`. Each rule below that names one says what it means.',
    '',
    ...[...declared.values()].map(
      (p) =>
        `- \`${p.name}\`: ${oneLine(p.meaning)} Logic: ${code(logicText(p.written))}. Named by ${rulesCount(users.get(p.name)?.length ?? 0)}.`,
    ),
    '',
  ];
}

/** `- Applies when: ...` as the rule's file writes it, then what each precondition it names means. */
function whenLines(rule: LoadedRule, ruleset: CheckedRuleset): string[] {
  const { declared, written } = ruleset.preconditions;
  const when = written.get(rule.id);
  if (when === undefined) return logicLines('Applies when', rule.when);
  return [
    ...logicLines('Applies when', when),
    ...expand(when, declared).named.map((n) => {
      const p = declared.get(n)!;
      return `  - \`${n}\` (${code(logicText(p.written))}): ${oneLine(p.meaning)}`;
    }),
  ];
}

export function renderCatalogue(ruleset: CheckedRuleset, rulesDir: string): string {
  const categories = [...new Set(ruleset.rules.map((r) => r.category))].sort();
  const lines: string[] = [
    '# Rule catalogue',
    '',
    '<!-- Generated by `dvs rules docs` from rules/**/*.yaml. Do not edit by hand; the test suite fails when it is stale. -->',
    '',
    `Ruleset **${ruleset.version}**, digest \`${ruleset.digest}\`, **${ruleset.rules.length} rules**.`,
    '',
    'Levels: a failing **required** rule makes the verdict NOT_CONFORMANT (an unevaluable one, INCOMPLETE);',
    '**recommended** rules weigh in the score; **informational** rules are reported only. Tier **quick** rules run in',
    'Quick Scan and Full Validation, **full** rules only in Full Validation.',
    '',
    "Each rule's logic is printed as an expression over the facts it reads (the rule file holds the exact",
    'json-logic): `and` and `or` are parenthesised when mixed, `some item of L has (...)` and `every item of L has',
    '(...)` test the items of a list, called `item` inside the parentheses, and other operations read as calls',
    '(`length(x)`).',
    '',
    ...parserLine(rulesDir),
    '| category | rules | required | recommended | informational | quick tier |',
    '|---|---|---|---|---|---|',
    ...categories.map((c) =>
      countRow(
        `[${c}](#${c})`,
        ruleset.rules.filter((r) => r.category === c),
      ),
    ),
    countRow('**all**', ruleset.rules),
    '',
    ...SCORE_LINES,
    ...anchorSection(ruleset),
    ...preconditionLines(ruleset),
  ];
  for (const category of categories) {
    lines.push(`## ${category}`, '');
    for (const r of ruleset.rules.filter((x) => x.category === category)) {
      lines.push(`### \`${r.id}\` (v${r.version})`, '');
      lines.push(
        `**${oneLine(r.title)}**: ${r.level}, tier ${r.tier}.${r.spec ? ` Spec: ${r.spec.name}${r.spec.version ? ` ${r.spec.version}` : ''} (${r.spec.status}).` : ''}`,
        '',
      );
      lines.push(`- Why: ${oneLine(r.rationale)}`);
      lines.push(`- Fix: ${oneLine(r.remediation)}`);
      if (r.when !== undefined) lines.push(...whenLines(r, ruleset));
      lines.push(...logicLines('Passes when', r.check));
      lines.push('- Facts it reads:', ...factLines(r, ruleset.schemas));
      lines.push(`- References: ${r.references.map(oneLine).join('; ')}`, '');
    }
  }
  const notes = leftOutNotes(rulesDir);
  if (notes.length) {
    lines.push(
      '## Left out, and why',
      '',
      'Checks studied in the research but not in the catalogue, because they cannot be observed honestly from outside:',
      '',
    );
    for (const n of notes) lines.push(`### From \`${n.file}\``, '', n.text.replace(/^#+ .*\n+/, ''), '');
  }
  return `${trimEndOf(lines.join('\n'), '\n')}\n`;
}
