// The evaluate bench's measurements (bench/evaluate.bench.ts), run from their bundle as `dvs serve` runs the
// evaluator: the code measured is the code that ships (one bundle of the modules), not each module loaded apart
// through tsx's loader. BENCH_CACHE_DIR names the cache holding the compiled ruleset, BENCH_OBSERVATIONS the
// document.
import { readFileSync } from 'node:fs';
import { loadRunRuleset } from '../src/catalogue/compiled-ruleset.ts';
import { buildReport, evaluate, evaluateRules, planOf } from '../src/engine/evaluate.ts';
import { PlannedDocument } from '../src/engine/evaluation-plan.ts';
import type { Ruleset } from '../src/engine/ruleset.ts';
import type { Observations } from '../src/engine/types.ts';
import { canonicalJson, digestOf } from '../src/lib/canonical-json.ts';
import { median } from './median.ts';

/**
 * CPU microseconds per call of `fn` after `warmUp` calls: the process's user and system time, so other work on a
 * shared machine inflates it far less than wall time would. Measured in `rounds` rounds and the median round
 * taken: a burst of other work on the machine (seen here to slow it by two to six times for seconds) then
 * decides at most the rounds it falls in, not the figure.
 */
function perCall(fn: () => unknown, runs: number, warmUp = Math.min(200, runs), rounds = 9): number {
  for (let i = 0; i < warmUp; i++) fn();
  const perRound = Math.max(1, Math.round(runs / rounds));
  const figures: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < perRound; i++) fn();
    const used = process.cpuUsage(t0);
    figures.push((used.user + used.system) / perRound);
  }
  return median(figures);
}

function measure(
  ruleset: Ruleset,
  file: string,
  loadMs: number,
  canonicalize: (value: unknown) => string | undefined,
): void {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Observations;
  const results = evaluateRules(doc, ruleset, 'full');
  const digest = digestOf(doc);
  // The evaluator's own plan: a second plan's records would be objects of other shapes, which the view's code
  // would then meet besides the evaluator's, and the figures after it would measure that mix.
  const plan = planOf(ruleset, 'full');
  // V8 optimises the catalogue's hundreds of small functions over the first thousands of evaluations: the first
  // ones are printed apart, and the figure is the steady state a running service reaches.
  const first = perCall(() => evaluateRules(doc, ruleset, 'full'), 1000, 0, 1);
  const rules = perCall(() => evaluateRules(doc, ruleset, 'full'), 5000, 5000);
  const view = perCall(() => new PlannedDocument(plan, doc), 5000);
  const report = perCall(() => buildReport(doc, ruleset, 'full', results, digest), 5000);
  const canonical = perCall(() => canonicalJson(doc), 500);
  const reference = perCall(() => canonicalize(doc), 500);
  const evidence = perCall(() => digestOf(doc), 500);
  const whole = perCall(() => evaluate(doc, ruleset, 'full'), 500);
  const us = (x: number) => `${x.toFixed(1)} us`;
  console.log('| figure | value |\n|---|---|');
  console.log(`| rules | ${ruleset.rules.length} |`);
  console.log(`| ruleset load (the compiled artifact, as a run loads it) | ${loadMs.toFixed(0)} ms |`);
  console.log(
    `| one full evaluation of the catalogue (compiled rules, observed values), steady state | ${us(rules)} |`,
  );
  console.log(`| the same over a process's first 1,000 evaluations (JIT still compiling) | ${us(first)} |`);
  console.log(`| of which the document's view (path lookups, presence, bounded observed values) | ${us(view)} |`);
  console.log(`| report build around the results (verdict, score, counts) | ${us(report)} |`);
  const kib = (JSON.stringify(doc).length / 1024).toFixed(0);
  console.log(`| canonical JSON of the evidence (${kib} KiB), our serialiser | ${us(canonical)} |`);
  console.log(`| the same by the canonicalize package (the tests' reference) | ${us(reference)} |`);
  console.log(`| evidence digest (canonical JSON + SHA-256 of ${kib} KiB) | ${us(evidence)} |`);
  console.log(`| evaluate() as a whole (all three) | ${us(whole)} |`);
  console.log(`| rule applications per second | ${((ruleset.rules.length * 1e6) / rules).toFixed(0)} |`);
}

const { default: canonicalize } = await import('canonicalize');
const t0 = performance.now();
const ruleset = loadRunRuleset(process.env.BENCH_CACHE_DIR!);
measure(ruleset, process.env.BENCH_OBSERVATIONS!, performance.now() - t0, canonicalize);
