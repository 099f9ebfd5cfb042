// The command line as one CommonJS bundle of the TypeScript sources (esbuild), so a command does not load two
// hundred modules one by one through tsx's loader (over half the CPU of `dvs serve` starting, a third of a cold `dvs
// scan`). Built on first use in node_modules/.cache/dvs-cli/, so a clean `npm ci` needs no build step, and rebuilt
// whenever one of the files it was built from changes: each start checks exactly those files, as listed by the
// last build (their metadata, and their contents where that changed). What the sources import lazily (a command, a
// probe, a heavy package) runs when first imported, as before. Packages stay external (Node loads them), except a
// few made of many modules, which Node would load one at a time (zod alone is 96; undici and @peculiar/x509 with
// its ASN.1 packages took 120 and 170 ms of a `dvs scan` each), and the small pure-JS ones a scan imports, which
// Node would resolve, read and compile apart (seven of them were 30 ms of a `dvs scan`'s wall time).
//
// CommonJS rather than ES modules because a script compiled through node:vm can be given V8's code cache, and
// Node 20 offers none for ES modules: parsing and compiling the bundle's code was a quarter of a `dvs scan`. Each
// command keeps its own cache beside the build, written when the process exits, so it holds what that command
// compiled.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'dvs-cli');
/**
 * Builds that are no longer current are removed when a new one is built once they are this old: a process
 * started from one writes its code cache there when it exits, and a service runs long.
 */
const STALE_MS = 24 * 60 * 60 * 1000;
/** Bundled into the build: none holds native code or reads its own files. */
const BUNDLED = new Set([
  'zod',
  '@modelcontextprotocol/sdk',
  'parse5',
  'fast-xml-parser',
  'structured-headers',
  'bcp-47',
  'jose',
  '@peculiar/x509',
  'undici',
  'tldts',
  'dns-packet',
  'http-message-signatures',
  'json-logic-js',
  'ipaddr.js',
  'eventsource-parser',
  'reflect-metadata',
]);

/** Every package the sources may import, less the bundled ones (a bundled package's own imports are bundled too). */
function externals() {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return Object.keys({ ...dependencies, ...devDependencies }).filter((name) => !BUNDLED.has(name));
}

/** A bundled package's files are stood for by its package.json (its version): they change only with an install. */
function standIns(inputs) {
  const out = new Set();
  for (const rel of inputs) {
    const pkg = /^(.*?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(rel);
    out.add(pkg ? `${pkg[1]}/package.json` : rel);
  }
  return [...out].sort();
}

/** SHA-256 over the Node version and every input's path and content; null when one is gone. */
function inputsKey(inputs) {
  const hash = createHash('sha256').update(process.version);
  for (const rel of inputs) {
    let bytes;
    try {
      bytes = readFileSync(path.join(ROOT, rel));
    } catch {
      return null;
    }
    hash.update(rel).update('\0').update(bytes).update('\0');
  }
  return hash.digest('hex');
}

/**
 * SHA-256 over every input's path and metadata (size, inode, modification and change times); null when one is
 * gone. Writing a file changes its change time, which no tool sets back, so while the stamp is the one recorded
 * with a key, the contents are those the key was made from: a start stats the inputs instead of reading and
 * hashing all of them (8 to 12 ms of every `dvs` command), as git's index does.
 */
function inputsStamp(inputs) {
  const hash = createHash('sha256').update(process.version);
  for (const rel of inputs) {
    let s;
    try {
      s = statSync(path.join(ROOT, rel), { bigint: true });
    } catch {
      return null;
    }
    hash.update(`${rel}\0${s.size}\0${s.ino}\0${s.mtimeNs}\0${s.ctimeNs}\0`);
  }
  return hash.digest('hex');
}

/** Written aside and renamed into place, so a process starting beside this one reads a whole file or none. */
function replaceFile(file, data) {
  writeFileSync(`${file}.${process.pid}`, data);
  renameSync(`${file}.${process.pid}`, file);
}

/** Records which build is current, with its inputs and their stamp. */
function writeCurrent(entryDir, current) {
  replaceFile(path.join(entryDir, 'current.json'), JSON.stringify(current));
}

/** Where an entry's builds live: one directory per entry module (src/cli.ts: `cli`). */
function dirOf(entry) {
  return path.join(CACHE, entry.replace(/\.ts$/, '').replaceAll('/', '-').replace(/^src-/, ''));
}

/** The output file of an entry in a build directory. */
const outputOf = (dir, entry) => path.join(dir, `${path.basename(entry, '.ts')}.cjs`);

/** The bundle of the current sources, if the last build is still current. */
function currentBundle(entry) {
  const dir = dirOf(entry);
  let current;
  try {
    current = JSON.parse(readFileSync(path.join(dir, 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(current.inputs) || typeof current.key !== 'string') return null;
  // Stamped before the contents are hashed: a file written in between fails the stamp at the next start.
  const stamp = inputsStamp(current.inputs);
  if (stamp === null || stamp !== current.stamp) {
    if (inputsKey(current.inputs) !== current.key) return null;
    try {
      writeCurrent(dir, { ...current, stamp });
    } catch {
      // A read-only install hashes the contents at each start instead.
    }
  }
  const file = outputOf(path.join(dir, `build-${current.key}`), entry);
  try {
    statSync(file);
    return file;
  } catch {
    return null;
  }
}

/**
 * `import.meta.url` in a bundle would name the bundle; modules that find the repository's files from their own
 * place (src/lib/paths.ts, the migrations) keep their source file's URL.
 */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const contents = source.includes('import.meta.url')
        ? source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        : source;
      return { contents, loader: 'ts' };
    });
  },
};

function prune(dir, keep) {
  for (const name of readdirSync(dir)) {
    const build = path.join(dir, name);
    if (!name.startsWith('build-') || name === keep) continue;
    if (Date.now() - statSync(build).mtimeMs > STALE_MS) rmSync(build, { recursive: true, force: true });
  }
}

async function build(entry) {
  const esbuild = await import('esbuild');
  const entryDir = dirOf(entry);
  mkdirSync(entryDir, { recursive: true });
  const tmp = path.join(entryDir, `tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, entry)],
    outdir: tmp,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    target: `node${process.versions.node.split('.')[0]}`,
    external: externals(),
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
    plugins: [ownUrls],
  });
  asciiOnly(outputOf(tmp, entry));
  // This file and package.json decide how the build is made: a change to either is a new build too.
  const inputs = standIns([...Object.keys(result.metafile.inputs), 'bin/cli-bundle.js', 'package.json']);
  const stamp = inputsStamp(inputs);
  const key = inputsKey(inputs);
  const dir = path.join(entryDir, `build-${key}`);
  // Renamed into place, so a process starting beside this one reads a whole build or none; one that built the
  // same sources first has already put the same files there.
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeCurrent(entryDir, { key, inputs, stamp });
  prune(entryDir, `build-${key}`);
  return outputOf(dir, entry);
}

/**
 * esbuild writes strings, patterns and names in ASCII, but leaves the comments it keeps as they were written, some
 * beyond ASCII. Those escaped too (such a comment follows any code on its line, so no mapped position moves), the
 * bundle is ASCII: read as Latin-1 it needs no UTF-8 decoding, and V8 keeps it at one byte a character. Decoding
 * the 4.3 MB bundle as UTF-8 took 65 to 75 ms of every command's start on a slow machine.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

/** The bundle of `entry` (a path from the repository root), built now if a source changed. */
async function bundleOf(entry) {
  return currentBundle(entry) ?? (await build(entry));
}

/** A name that can be a file's: a command's, or none. */
const CACHE_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Runs a bundle as Node runs a CommonJS module and returns its exports. With `cacheName`, V8's code cache is read
 * from the build's `code-cache/<cacheName>.bin`, and when it was missing, damaged or refused (another Node, other V8
 * flags), written at exit if `keep(exports)` says so, holding every function the process compiled. V8 tells a
 * cache from its source by length only; the cache lives in the build it was made from, so it never meets other
 * code. A process that changed V8's flags while it ran (`dvs serve` bounds heap growth) writes none: its cache
 * would carry those flags and be refused by the next start, which has not set them yet. Under
 * `--enable-source-maps` the bundle is required as a module instead, since Node maps the stack traces of what its
 * loader compiled and not of scripts compiled through node:vm.
 */
function runBundle(file, cacheName, keep) {
  if (process.sourceMapsEnabled) return createRequire(import.meta.url)(file);
  const cacheFile =
    cacheName && CACHE_NAME.test(cacheName) ? path.join(path.dirname(file), 'code-cache', `${cacheName}.bin`) : null;
  const cachedData = cacheFile === null ? undefined : readCodeCache(cacheFile);
  const flags = v8.cachedDataVersionTag();
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'latin1')}\n})`,
    { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
  );
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  if (cacheFile !== null && (cachedData === undefined || script.cachedDataRejected) && keep(module.exports)) {
    process.once('exit', () => {
      if (v8.cachedDataVersionTag() !== flags) return;
      try {
        mkdirSync(path.dirname(cacheFile), { recursive: true });
        const data = script.createCachedData();
        replaceFile(cacheFile, Buffer.concat([createHash('sha256').update(data).digest(), data]));
      } catch {
        // A read-only install compiles the code at each start instead.
      }
    });
  }
  return module.exports;
}

/**
 * The code cache in `file` if it is whole. V8 checks a cache's version, flags and source length, but not its
 * bytes: a damaged one stopped the process with a fatal error. So the file starts with the SHA-256 of the rest.
 */
function readCodeCache(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(32);
  return createHash('sha256').update(data).digest().equals(bytes.subarray(0, 32)) ? data : undefined;
}

/** Runs `entry` from its bundle and returns its exports. */
export async function runBundled(entry) {
  return runBundle(await bundleOf(entry));
}

/**
 * The CLI module: from the bundle (built now if the sources changed) with the code cache of `command`, or through
 * tsx when no bundle can be built (a read-only install, or esbuild missing), which is slower to start but runs the
 * same code. Only the CLI's own commands keep a cache: a mistyped word leaves none behind.
 */
export async function loadCli(command) {
  if (process.env.DVS_CLI_BUNDLE !== '0') {
    try {
      return runBundle(await bundleOf('src/cli.ts'), command, (cli) => cli.COMMAND_NAMES.includes(command));
    } catch (err) {
      if (process.env.DVS_CLI_BUNDLE === '1') throw err;
      process.stderr.write(`dvs: starting through tsx, the CLI bundle failed (${err.message.split('\n')[0]})\n`);
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src/cli.ts');
}
