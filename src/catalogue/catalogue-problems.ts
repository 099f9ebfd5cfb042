// Everything that can be wrong with a catalogue once it loads, in one list: `dvs rules check` prints it and the
// test suite asserts it is empty, so the two can never disagree about what a rule author must fix.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dropUnreadFacts, unreadExampleFacts } from './example-facts.ts';
import { factMeanings, renderCatalogue } from './rules-doc.ts';
import { lockProblems, readLock, runExamples, weakRuleGate, writeLock, type ExampleRun } from './rule-checks.ts';
import { unstyledRuleFiles } from './rule-format.ts';
import { PRECONDITIONS_FILE, type CheckedRuleset } from './load-ruleset.ts';
import { namedBy } from './preconditions.ts';

export type ProblemKind =
  'unfinished' | 'undescribed' | 'example' | 'unread' | 'unused' | 'hollow' | 'style' | 'lock' | 'docs';

/** The blank `dvs rules new` leaves in every field an author must write. */
export const UNFINISHED = 'FILL-IN';

export interface CatalogueProblem {
  kind: ProblemKind;
  /** Repository-relative file the author must change (or regenerate). */
  file: string;
  message: string;
}

export interface CatalogueReview {
  problems: CatalogueProblem[];
  /** Files `--fix` rewrote (restyled rules, the lock, docs/rules.md). */
  fixed: string[];
  runs: ExampleRun[];
  gate: ReturnType<typeof weakRuleGate>;
}

export interface ReviewOptions {
  rulesDir: string;
  /** docs/rules.md; the catalogue is rendered from the rule files and must equal it. */
  docsFile: string;
  /** Restyle rule files, drop unread example facts, rewrite a stale lock (when no version bump is needed) and docs/rules.md. */
  fix: boolean;
}

export function reviewCatalogue(ruleset: CheckedRuleset, opts: ReviewOptions): CatalogueReview {
  const problems: CatalogueProblem[] = [];
  const fixed: string[] = [];
  const rel = (file: string) => path.relative(path.dirname(opts.rulesDir), file);

  const files = ruleset.rules.map((r) => r.file);
  const root = path.dirname(opts.rulesDir);
  for (const file of files.filter((f) => readFileSync(path.join(root, f), 'utf8').includes(UNFINISHED))) {
    problems.push({ kind: 'unfinished', file, message: `still holds ${UNFINISHED} blanks from \`dvs rules new\`` });
  }
  for (const file of unstyledRuleFiles(files, opts.rulesDir, opts.fix)) {
    if (opts.fix) fixed.push(file);
    else problems.push({ kind: 'style', file, message: 'not in the house style' });
  }

  // An auditor reads what a fact means beside the rule in docs/rules.md; the schema must say it.
  for (const rule of ruleset.rules) {
    for (const { path: fact } of factMeanings(rule, ruleset.schemas).filter((f) => f.meaning === null)) {
      problems.push({
        kind: 'undescribed',
        file: rule.file,
        message: `reads ${fact}, which its schema does not describe`,
      });
    }
  }

  for (const rule of ruleset.rules) {
    const unread = unreadExampleFacts(rule);
    if (!unread.length) continue;
    if (opts.fix && dropUnreadFacts(rule, opts.rulesDir) && !fixed.includes(rule.file)) fixed.push(rule.file);
    for (const { example, paths } of opts.fix ? [] : unread) {
      problems.push({
        kind: 'unread',
        file: rule.file,
        message: `example "${example}" carries facts its logic never reads: ${paths.join(', ')}`,
      });
    }
  }

  // A name nobody uses is a definition a reader looks up for nothing, or a rule that forgot it.
  const users = namedBy(ruleset.preconditions.written, ruleset.preconditions.declared);
  for (const name of ruleset.preconditions.declared.keys()) {
    if (users.has(name)) continue;
    problems.push({
      kind: 'unused',
      file: rel(path.join(opts.rulesDir, PRECONDITIONS_FILE)),
      message: `declares the precondition "${name}", which no rule names`,
    });
  }

  const runs = runExamples(ruleset);
  for (const r of runs.filter((x) => x.got !== x.expected && !x.todo)) {
    const why = r.reason ? ` (${r.reason})` : '';
    const file = ruleset.byId.get(r.rule)?.file ?? r.rule;
    problems.push({
      kind: 'example',
      file,
      message: `example "${r.example}": expected ${r.expected}, got ${r.got}${why}`,
    });
  }

  const gate = weakRuleGate(ruleset);
  for (const id of gate.refused) {
    problems.push({
      kind: 'hollow',
      file: ruleset.byId.get(id)?.file ?? id,
      message:
        'required rule passes on hollow evidence (every fact null or empty); test facts explicitly, or state hollow_pass_reason',
    });
  }

  problems.push(...reviewLock(ruleset, opts, fixed, rel));
  problems.push(...reviewDocs(ruleset, opts, fixed, rel));
  return { problems, fixed, runs, gate };
}

// A lock that is merely stale is rewritten by --fix; one that needs a version bump is the author's decision.
function reviewLock(
  ruleset: CheckedRuleset,
  opts: ReviewOptions,
  fixed: string[],
  rel: (f: string) => string,
): CatalogueProblem[] {
  const lockFile = path.join(opts.rulesDir, 'ruleset.lock.json');
  const lock = readLock(lockFile);
  const issues = lock ? lockProblems(ruleset, lock) : ['the lock is missing'];
  if (!issues.length) return [];
  const needsBump = lock !== null && issues.some((p) => /bump|went back/.test(p));
  if (opts.fix && !needsBump) {
    writeLock(lockFile, ruleset);
    fixed.push(rel(lockFile));
    return [];
  }
  return issues.map((message) => ({ kind: 'lock', file: rel(lockFile), message }));
}

function reviewDocs(
  ruleset: CheckedRuleset,
  opts: ReviewOptions,
  fixed: string[],
  rel: (f: string) => string,
): CatalogueProblem[] {
  const text = renderCatalogue(ruleset, opts.rulesDir);
  if (existsSync(opts.docsFile) && readFileSync(opts.docsFile, 'utf8') === text) return [];
  if (opts.fix) {
    writeFileSync(opts.docsFile, text);
    fixed.push(rel(opts.docsFile));
    return [];
  }
  return [{ kind: 'docs', file: rel(opts.docsFile), message: 'stale: it no longer matches the rule files' }];
}
