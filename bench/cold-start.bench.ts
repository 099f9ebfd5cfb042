// Cold start: `dvs evaluate` of the golden good.test evidence as a whole process, the first time (the ruleset is
// fully checked and its artifact built) and after (loaded from the artifact). Wall time, one process each.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');

function processMs(dataDir: string): number {
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'bin', 'dvs.js'), 'evaluate', path.join(ROOT, 'test', 'golden', 'good.test.observations.json')],
    { env: { ...process.env, DVS_DATA_DIR: dataDir, DVS_LOG_LEVEL: 'silent' }, stdio: 'ignore' },
  );
  return performance.now() - t0;
}

export default function bench(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-cold-'));
  const first = processMs(dataDir);
  const warm = [processMs(dataDir), processMs(dataDir), processMs(dataDir)].sort((a, b) => a - b)[1]!;
  console.log('| figure | value |\n|---|---|');
  console.log(`| \`dvs evaluate\` process, first run (full ruleset check, artifact built) | ${first.toFixed(0)} ms |`);
  console.log(`| \`dvs evaluate\` process, ruleset from the artifact (median of 3) | ${warm.toFixed(0)} ms |`);
  return Promise.resolve();
}
