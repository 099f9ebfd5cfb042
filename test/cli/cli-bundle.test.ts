// The CLI bundle is rebuilt when one of its sources changes, and reused while none does. Run on a copy of the
// sources, so the repository's own bundle cache is never touched; packages are linked, not copied.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');
let copy: string;

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'dvs-cli-bundle-'));
  for (const dir of ['bin', 'src', 'plugins', 'schemas'])
    cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
  // Every package linked except .cache, where the copy keeps its own builds.
  mkdirSync(path.join(copy, 'node_modules'));
  for (const name of readdirSync(path.join(ROOT, 'node_modules')).filter((n) => n !== '.cache')) {
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(copy, 'node_modules', name));
  }
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** `dvs <args>` from the copy's bundle (DVS_CLI_BUNDLE=1: a failed build fails the run, no fallback to tsx). */
async function dvs(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(copy, 'bin', 'dvs.js'), ...args],
      { env: { ...process.env, DVS_CLI_BUNDLE: '1' } },
      (err, stdout, stderr) => resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr }),
    );
  });
}

/** The first line `dvs help` prints. */
const help = async (): Promise<string> => (await dvs('help')).stdout.split('\n')[0]!;

const builds = (): string[] =>
  readdirSync(path.join(copy, 'node_modules', '.cache', 'dvs-cli', 'cli')).filter((n) => n.startsWith('build-'));

/** Where the current build keeps its code caches. */
function codeCacheDir(): string {
  const cli = path.join(copy, 'node_modules', '.cache', 'dvs-cli', 'cli');
  const { key } = JSON.parse(readFileSync(path.join(cli, 'current.json'), 'utf8')) as { key: string };
  return path.join(cli, `build-${key}`, 'code-cache');
}

/** The current build's bundle. */
function bundleFile(): string {
  return path.join(path.dirname(codeCacheDir()), 'cli.cjs');
}

/** The current build's code caches, by name, with their bytes. */
function codeCaches(): Map<string, Buffer> {
  const dir = codeCacheDir();
  const names = existsSync(dir) ? readdirSync(dir) : [];
  return new Map(names.map((name) => [name, readFileSync(path.join(dir, name))]));
}

describe('CLI bundle', () => {
  it('is built on first use, reused while the sources are unchanged, and rebuilt when one changes', async () => {
    expect(await help()).toBe('usage: dvs <command> [options]');
    expect(builds()).toHaveLength(1);
    // ASCII throughout, comments included, since it is read as Latin-1.
    expect(readFileSync(bundleFile()).findIndex((byte) => byte > 0x7f)).toBe(-1);
    expect(await help()).toBe('usage: dvs <command> [options]');
    expect(builds()).toHaveLength(1);

    const cli = path.join(copy, 'src', 'cli.ts');
    writeFileSync(cli, readFileSync(cli, 'utf8').replace("'usage: dvs <command> [options]'", "'usage: dvs <cmd>'"));
    expect(await help()).toBe('usage: dvs <cmd>');
    expect(builds()).toHaveLength(2);

    // Rewritten with the same contents: the stamp changes, the contents' key does not, and the build is kept.
    writeFileSync(cli, readFileSync(cli, 'utf8'));
    expect(await help()).toBe('usage: dvs <cmd>');
    expect(builds()).toHaveLength(2);

    // Changed to text of the same length with its modification time put back: the change time still tells.
    const { atime, mtime } = statSync(cli);
    writeFileSync(cli, readFileSync(cli, 'utf8').replace("'usage: dvs <cmd>'", "'usage: dvs <CMD>'"));
    utimesSync(cli, atime, mtime);
    expect(await help()).toBe('usage: dvs <CMD>');
    expect(builds()).toHaveLength(3);
  }, 120_000);

  it("keeps V8's code cache per command, reuses it, and makes it again when it is damaged", async () => {
    // `dvs verify` without a certificate is a usage error, after the command's module has loaded.
    const usage = await dvs('verify');
    expect(usage.code).toBe(2);
    const first = codeCaches().get('verify.bin');
    expect(first?.length).toBeGreaterThan(10_000);

    // Taken as it is: a cache V8 accepted is not written again.
    expect(await dvs('verify')).toEqual(usage);
    expect(codeCaches().get('verify.bin')).toEqual(first);

    // A cache damaged past V8's header fails its digest (V8 would take it and stop the process with a fatal
    // error): the command runs from the source alike, and writes a good cache.
    const damaged = Buffer.from(first!);
    damaged.fill(0x5a, 32 + 64, 4096);
    writeFileSync(path.join(codeCacheDir(), 'verify.bin'), damaged);
    expect(await dvs('verify')).toEqual(usage);
    expect(codeCaches().get('verify.bin')?.equals(damaged)).toBe(false);

    // Neither help (run above from this build) nor a word that is no command leaves a cache.
    await dvs('frobnicate');
    expect([...codeCaches().keys()]).toEqual(['verify.bin']);
  }, 60_000);

  it('names the sources in stack traces under --enable-source-maps, and the bundle otherwise', async () => {
    const fixture = path.join(import.meta.dirname, 'fixtures', 'bundle-stack.js');
    const frame = async (...flags: string[]) =>
      (await promisify(execFile)(process.execPath, [...flags, fixture])).stdout.trim();
    expect(await frame('--enable-source-maps')).toMatch(/\([^()]*\/src\/cli\.ts:\d+:\d+\)$/);
    expect(await frame()).toMatch(
      /\([^()]*\/node_modules\/\.cache\/dvs-cli\/cli\/build-[0-9a-f]{64}\/cli\.cjs:\d+:\d+\)$/,
    );
  }, 30_000);
});
