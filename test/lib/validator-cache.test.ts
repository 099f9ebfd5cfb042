import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import serverCardSchema from '../../plugins/agents/schemas/mcp-server-card-v1.json' with { type: 'json' };
import { cachedValidator, runStandalone, writeCodeCaches } from '../../src/lib/validator-cache.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const OPTIONS = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true };
const DOCUMENTS: unknown[] = [
  {},
  { name: 'x' },
  { $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json', name: 7, version: [] },
  [],
  'card',
];

const dirs: string[] = [];
function cacheDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-validators-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Each document's verdict and errors, as a validator gives them. */
function judged(validate: ReturnType<typeof cachedValidator>) {
  return DOCUMENTS.map((doc) => [validate(doc), validate.errors ?? null]);
}

describe('cachedValidator', () => {
  it('compiles once, then loads the cached code, which judges exactly as the compiled validator did', () => {
    const dir = cacheDir();
    const compiled = judged(cachedValidator(serverCardSchema, OPTIONS, dir));
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const loaded = judged(cachedValidator(serverCardSchema, OPTIONS, dir));
    expect(loaded).toEqual(compiled);
    expect(compiled.some(([valid]) => valid === false)).toBe(true);
  });

  it('keys the cache by schema and options: another schema is another file', () => {
    const dir = cacheDir();
    cachedValidator(serverCardSchema, OPTIONS, dir);
    cachedValidator({ type: 'object', required: ['a'] }, OPTIONS, dir);
    cachedValidator(serverCardSchema, { ...OPTIONS, allErrors: false }, dir);
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('compiles again over a damaged file rather than running it', () => {
    const dir = cacheDir();
    const expected = judged(cachedValidator(serverCardSchema, OPTIONS, dir));
    const file = path.join(dir, readdirSync(dir)[0]!);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('return', 'throw new Error("damaged");return'));
    expect(judged(cachedValidator(serverCardSchema, OPTIONS, dir))).toEqual(expected);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('still validates where the cache cannot be written', () => {
    const dir = path.join(cacheDir(), 'file');
    writeFileSync(dir, '');
    const validate = cachedValidator({ type: 'string' }, OPTIONS, dir);
    expect([validate('a'), validate(1)]).toEqual([true, false]);
  });
});

/** Runs argv[1]'s code with the code cache in argv[2], as a new process would, and prints what it gives. */
const NEXT_START = `
import { runStandalone, writeCodeCaches } from './src/lib/validator-cache.ts';
const loaded = runStandalone(process.argv[1], 'inline', process.argv[2]);
console.log(JSON.stringify([loaded.positive(2), loaded.name()]));
writeCodeCaches();
`;

describe('runStandalone with a code cache', () => {
  // Each test its own source: V8 reuses a script compiled earlier in the process without reading any cache.
  const source = (tag: string) => `module.exports = { positive: (n) => n > 0, name: () => "cached" }; // ${tag}`;

  it('writes the cache when missing, then runs from it with the same results', () => {
    const file = path.join(cacheDir(), 'code.v8');
    const code = source('missing');
    const first = runStandalone(code, 'inline', file) as unknown as Record<string, (v?: number) => unknown>;
    expect(existsSync(file)).toBe(false);
    writeCodeCaches();
    const written = statSync(file).mtimeMs;
    const again = runStandalone(code, 'inline', file) as unknown as Record<string, (v?: number) => unknown>;
    writeCodeCaches();
    expect(statSync(file).mtimeMs).toBe(written);
    expect([again.positive!(1), again.positive!(-1), again.name!()]).toEqual([
      first.positive!(1),
      first.positive!(-1),
      first.name!(),
    ]);
  });

  it('compiles the code over a damaged cache, which V8 would take and fail on, and writes a good one', async () => {
    const file = path.join(cacheDir(), 'code.v8');
    const code = source('damaged');
    runStandalone(code, 'inline', file);
    writeCodeCaches();
    // The cache's header (what V8 checks) kept, its body spoiled.
    const damaged = readFileSync(file);
    damaged.fill(0x5a, 32 + 64);
    writeFileSync(file, damaged);
    // The next start is another process: this one would reuse the script it compiled, reading no cache.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', NEXT_START, code, file],
      { cwd: ROOT },
    );
    expect(JSON.parse(stdout)).toEqual([true, 'cached']);
    expect(readFileSync(file).equals(damaged)).toBe(false);
  }, 30_000);

  it('compiles the code over a cache V8 refuses, and writes a good one', () => {
    const file = path.join(cacheDir(), 'code.v8');
    writeFileSync(file, 'not a code cache');
    const loaded = runStandalone(source('refused'), 'inline', file) as unknown as Record<
      string,
      (v?: number) => unknown
    >;
    expect(loaded.name!()).toBe('cached');
    writeCodeCaches();
    expect(readFileSync(file).toString()).not.toBe('not a code cache');
  });
});
