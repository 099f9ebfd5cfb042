// `dvs scan` as a whole process: once the report is printed nothing the scan started (a connection pool, a
// socket, a DNS query, a timer) is left running, so the process ends by itself at once rather than when a
// keep-alive or a forgotten time limit runs out.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

/** stdio pipes are the process's own; an Immediate runs on the next turn of the loop and holds nothing. */
const HARMLESS = new Set(['PipeWrap', 'TTYWrap', 'Immediate']);

function dvsProcess(...argv: string[]): Promise<{ code: number | null; out: string; left: string[] }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'fixtures', 'dvs-then-handles.js'), ...argv], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...world.env,
      DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-scan-process-')),
      DVS_CACHE_DIR: SUITE_CACHE_DIR,
      DVS_LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = /^after main: (.*)$/m.exec(err)?.[1];
      if (line === undefined) return reject(new Error(`main() did not return (exit ${code}): ${err}`));
      const left = (JSON.parse(line) as string[]).filter((r) => !HARMLESS.has(r));
      resolve({ code, out, left });
    });
  });
}

it('leaves nothing running once a Quick Scan has printed its report', async () => {
  const r = await dvsProcess('scan', 'good.test');
  expect(r.out).toMatch(/^Quick Scan \(indicative\) of good\.test: CERTIFIED/);
  expect(r.left).toEqual([]);
  expect(r.code).toBe(0);
});

it('leaves nothing running once a Full Validation has printed its report, nor after a refused domain', async () => {
  const full = await dvsProcess('scan', 'good.test', '--full');
  expect(full.out).toMatch(/^Full Validation of good\.test: CERTIFIED/);
  expect(full.out).toContain('\nAgent-readiness level 5 of 5 (Agent-Native)\n');
  expect(full.left).toEqual([]);
  const refused = await dvsProcess('scan', 'does-not-exist.test');
  expect(refused.code).toBe(1);
  expect(refused.left).toEqual([]);
});
