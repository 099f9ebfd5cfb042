// Ajv validators kept on disk as ajv's standalone code, built on first use and keyed by what they are made of
// (ajv's version, the options, the schema), so a schema is compiled once per change rather than at every process
// start: compiling the MCP server card's schema (and ajv's meta-schema, to check it) took 0.75 s of a cold
// `dvs scan`. Like the CLI bundle, the cache lives in node_modules/.cache: it derives from committed files only.
// Its first line is the SHA-256 of the rest, so a damaged file is compiled again, never run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import vm from 'node:vm';
import type { AnySchema, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { lazyRequire } from './lazy-require.ts';
import { REPO_ROOT } from './paths.ts';
import { writeAside } from './write-aside.ts';

const require = createRequire(import.meta.url);
const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const ajvStandalone = lazyRequire<typeof import('ajv/dist/standalone/index.js')>('ajv/dist/standalone/index.js');

const CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'dvs-validators');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Runs ajv standalone code (a CommonJS module); its few runtime helpers are required from this package's ajv.
 * With `codeCacheFile`, V8's code cache for it is read from there, and written when the process exits if it was
 * missing or refused, holding every function compiled by then: the ruleset's observation validators are 1.5 MB
 * of code, and compiling them at load and at first use was 80 ms of CPU of every start. V8 tells a cache apart
 * from its source by length only, so the file's name must change with the code (name it by the code's digest).
 */
export function runStandalone(
  code: string,
  filename: string,
  codeCacheFile?: string,
): Record<string, ValidateFunction> {
  const cachedData = codeCacheFile === undefined ? undefined : readCodeCache(codeCacheFile);
  const script = new vm.Script(`(function (exports, require, module) {${code}\n})`, {
    filename,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as Record<string, ValidateFunction> };
  const run = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: unknown) => void;
  run(module.exports, require, module);
  if (codeCacheFile !== undefined && (!cachedData || script.cachedDataRejected)) {
    if (unwrittenCaches.size === 0) process.once('exit', writeCodeCaches);
    unwrittenCaches.set(codeCacheFile, script);
  }
  return module.exports;
}

/** Scripts whose code cache is written at exit, by file: one listener however many loads a process makes. */
const unwrittenCaches = new Map<string, vm.Script>();

/** Writes the code caches still to write (done at exit; exported for the tests), each after its digest. */
export function writeCodeCaches(): void {
  for (const [file, script] of unwrittenCaches) {
    const data = script.createCachedData();
    keep(file, Buffer.concat([createHash('sha256').update(data).digest(), data]));
  }
  unwrittenCaches.clear();
}

/**
 * The code cache in `file` if it is whole. V8 checks a cache's version, flags and source length, but not its
 * bytes, and a damaged one is a fatal error of the process; so the file starts with the SHA-256 of the rest.
 */
function readCodeCache(file: string): Buffer | null {
  const bytes = readOrNull(file);
  if (bytes === null) return null;
  const data = bytes.subarray(32);
  return createHash('sha256').update(data).digest().equals(bytes.subarray(0, 32)) ? data : null;
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** Kept on disk where it can be (written aside: a process starting beside this one reads a whole file or none). */
function keep(file: string, data: string | Buffer): void {
  try {
    writeAside(file, data);
  } catch {
    // A read-only install: the code is compiled at each start instead, with the same result.
  }
}

/** The standalone code in `file` if it is whole, else null. */
function readCached(file: string): string | null {
  const text = readOrNull(file)?.toString('utf8');
  if (text === undefined) return null;
  const newline = text.indexOf('\n');
  const code = text.slice(newline + 1);
  return newline === 64 && sha256(code) === text.slice(0, newline) ? code : null;
}

/**
 * The validator of `schema` under ajv 2020 with `options`: from the cache when it holds this exact schema,
 * otherwise compiled now and cached. Both ways run the code ajv generates for the schema, so they judge alike.
 */
export function cachedValidator(schema: AnySchema, options: Options, cacheDir = CACHE_DIR): ValidateFunction {
  const version = (require('ajv/package.json') as { version: string }).version;
  const file = path.join(cacheDir, `${sha256(JSON.stringify([version, options, schema]))}.cjs`);
  const cached = readCached(file);
  if (cached !== null) return runStandalone(cached, file).default!;
  const ajv = new (ajvModule().Ajv2020)({ ...options, code: { ...options.code, source: true } });
  const validate = ajv.compile(schema);
  const code = ajvStandalone().default(ajv, validate);
  keep(file, `${sha256(code)}\n${code}`);
  return validate;
}
