// Cold start, each as a whole process: `dvs evaluate` of the golden good.test evidence the first time (the
// ruleset fully checked and its artifact built) and after (loaded from the artifact); `dvs scan good.test`
// against the fixture internet (goal <= 0.5 s); and `dvs serve` until it says it is listening (goal <= 1 s).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWorld } from '../test/world/index.ts';
import { median } from './median.ts';

const ROOT = path.join(import.meta.dirname, '..');
const DVS = path.join(ROOT, 'bin', 'dvs.js');

/**
 * Wall milliseconds of one `dvs` process. Spawned without blocking: the fixture internet answers from this
 * process's event loop, and a synchronous wait would leave the scan's DNS questions unanswered until it ends.
 */
function processMs(args: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [DVS, ...args], { env: { ...process.env, ...env } }, (err) => {
      // `dvs scan` exits 3 for a domain that is not CERTIFIED; anything else is a failed run.
      if (err && err.code !== 3) reject(new Error(`dvs ${args.join(' ')}: ${err.message}`));
      else resolve(performance.now() - t0);
    });
  });
}

/** The median of `n` runs, one after another. */
async function medianOfRuns(n: number, run: () => Promise<number>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < n; i++) runs.push(await run());
  return median(runs);
}

/** Milliseconds from spawning `dvs serve` to its "listening" line on stdout. */
function serveReadyMs(env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [DVS, 'serve'], {
    env: { ...process.env, ...env, DVS_PORT: '0', DVS_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Domain Validation Service on')) {
        resolve(performance.now() - t0);
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) => reject(new Error(`dvs serve exited with ${code} before it was ready`)));
  });
}

export default async function bench(): Promise<void> {
  // `dvs` runs dist/: compiled from this tree's sources first, as `npm ci` compiles it.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], { stdio: 'inherit' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-cold-'));
  const quiet = { DVS_DATA_DIR: dataDir, DVS_LOG_LEVEL: 'silent' };
  const evidence = path.join(ROOT, 'test', 'golden', 'good.test.observations.json');
  const first = await processMs(['evaluate', evidence], quiet);
  const warm = await medianOfRuns(3, () => processMs(['evaluate', evidence], quiet));
  const world = await startWorld();
  try {
    const env = { ...world.env, ...quiet };
    const scan = await medianOfRuns(7, () => processMs(['scan', 'good.test'], env));
    const serve = await medianOfRuns(3, () => serveReadyMs(env));
    console.log('| figure | value | goal |\n|---|---|---|');
    console.log(
      `| \`dvs evaluate\` process, first run (full ruleset check and artifact built) | ${first.toFixed(0)} ms | |`,
    );
    console.log(`| \`dvs evaluate\` process, ruleset from the artifact (median of 3) | ${warm.toFixed(0)} ms | |`);
    console.log(
      `| \`dvs scan good.test\` process, fixture internet (median of 7) | ${scan.toFixed(0)} ms | <= 500 ms |`,
    );
    console.log(`| \`dvs serve\` until listening (median of 3) | ${serve.toFixed(0)} ms | <= 1000 ms |`);
  } finally {
    await world.stop();
  }
}
