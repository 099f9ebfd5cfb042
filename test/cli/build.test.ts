// The command line runs from dist/, compiled at install by scripts/build.js (the suite's global setup builds it
// again when the sources under test changed since).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('the build', () => {
  it('names the sources in stack traces under --enable-source-maps, and dist/ otherwise', async () => {
    const fixture = path.join(import.meta.dirname, 'fixtures', 'bundle-stack.js');
    const frame = async (...flags: string[]) => (await run(process.execPath, [...flags, fixture])).stdout.trim();
    expect(await frame('--enable-source-maps')).toMatch(/\([^()]*\/src\/cli\.ts:\d+:\d+\)$/);
    expect(await frame()).toMatch(/\([^()]*\/dist\/cli\.js:\d+:\d+\)$/);
  }, 30_000);

  it('is asked for by bin/dvs.js when dist/ is missing', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'dvs-unbuilt-'));
    try {
      mkdirSync(path.join(copy, 'bin'));
      copyFileSync(path.join(import.meta.dirname, '..', '..', 'bin', 'dvs.js'), path.join(copy, 'bin', 'dvs.js'));
      const failed = await run(process.execPath, [path.join(copy, 'bin', 'dvs.js'), 'help']).catch(
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed).toMatchObject({ code: 1, stderr: 'dvs: dist/ is not built: run `npm ci` or `npm run build`\n' });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
