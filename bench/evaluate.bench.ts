// How fast the evaluator judges evidence: the whole ruleset over one observations document, repeated.
import { evaluate } from '../src/engine/evaluate.ts';
import { loadRuleset } from '../src/engine/ruleset.ts';
import { syntheticDocument } from '../src/engine/rule-checks.ts';
import type { Observations } from '../src/engine/types.ts';

export default async function bench(): Promise<void> {
  const t0 = performance.now();
  const ruleset = loadRuleset();
  const loadMs = performance.now() - t0;
  const doc = syntheticDocument(ruleset, 'yes') as unknown as Observations;
  for (let i = 0; i < 20; i++) evaluate(doc, ruleset, 'full');
  const runs = 500;
  const t1 = performance.now();
  for (let i = 0; i < runs; i++) evaluate(doc, ruleset, 'full');
  const ms = performance.now() - t1;
  const perEval = ms / runs;
  console.log('| figure | value |\n|---|---|');
  console.log(`| rules | ${ruleset.rules.length} |`);
  console.log(`| ruleset load (schemas, rules, examples checked) | ${loadMs.toFixed(0)} ms |`);
  console.log(`| full evaluations per second (report + evidence digest) | ${(1000 / perEval).toFixed(0)} |`);
  console.log(`| time per full evaluation | ${perEval.toFixed(2)} ms |`);
  console.log(`| rule applications per second | ${((ruleset.rules.length * 1000) / perEval).toFixed(0)} |`);
}
