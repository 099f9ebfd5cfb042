// How fast the evaluator judges evidence: the whole catalogue over one observations document (the golden
// good.test evidence), repeated; the rule evaluation (and within it the document's view), the report around it
// and the evidence digest each alone, and our canonical JSON against the canonicalize package's. The ruleset is
// the one a run judges with: the compiled artifact `dvs serve` and every command load, made into a temporary
// cache by a `dvs evaluate` in a process of its own. Loaded with every rule's examples checked, the rules' code
// would be trained on those examples' documents too: an evaluation measured 5 % slower that way (medians of six
// runs each, 107 us against 102). The measurements (bench/evaluate-measure.ts) run in a second process, from
// their bundle, as the service runs the evaluator.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');

export default function bench(): Promise<void> {
  const file = path.join(ROOT, 'test', 'golden', 'good.test.observations.json');
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-bench-evaluate-'));
  const env = { ...process.env, DVS_CACHE_DIR: cacheDir, DVS_LOG_LEVEL: 'silent' };
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'bin', 'dvs.js'), 'evaluate', file], { env, stdio: 'ignore' });
    execFileSync(process.execPath, [path.join(import.meta.dirname, 'bundled.js'), 'bench/evaluate-measure.ts'], {
      env: { ...env, BENCH_CACHE_DIR: cacheDir, BENCH_OBSERVATIONS: file },
      stdio: 'inherit',
    });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  return Promise.resolve();
}
