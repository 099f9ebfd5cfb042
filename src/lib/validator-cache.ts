// Ajv validators kept on disk as ajv's standalone code, built on first use and keyed by what they are made of
// (ajv's version, the options, the schema), so a schema is compiled once per change rather than at every process
// start: compiling the MCP server card's schema (and ajv's meta-schema, to check it) took 0.75 s of a cold
// `dvs scan`. Like the CLI bundle, the cache lives in node_modules/.cache: it derives from committed files only.
// Its first line is the SHA-256 of the rest, so a damaged file is compiled again, never run.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type { AnySchema, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { lazyRequire } from './lazy-require.ts';
import { REPO_ROOT } from './paths.ts';

const require = createRequire(import.meta.url);
const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const ajvStandalone = lazyRequire<typeof import('ajv/dist/standalone/index.js')>('ajv/dist/standalone/index.js');

const CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'dvs-validators');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Runs ajv standalone code (a CommonJS module); its few runtime helpers are required from this package's ajv. */
export function runStandalone(code: string, filename: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  const run = vm.compileFunction(code, ['exports', 'require', 'module'], { filename }) as (
    e: unknown,
    r: NodeJS.Require,
    m: unknown,
  ) => void;
  run(module.exports, require, module);
  return module.exports;
}

/** The standalone code in `file` if it is whole, else null. */
function readCached(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const newline = text.indexOf('\n');
  const code = text.slice(newline + 1);
  return newline === 64 && sha256(code) === text.slice(0, newline) ? code : null;
}

function writeCached(file: string, code: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written aside and renamed, so a process starting beside this one reads a whole file or none.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${sha256(code)}\n${code}`);
    renameSync(tmp, file);
  } catch {
    // A read-only install: the schema is compiled at each start instead, with the same result.
  }
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
  writeCached(file, ajvStandalone().default(ajv, validate));
  return validate;
}
