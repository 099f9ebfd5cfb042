// The build: the command line compiled once, at install (`npm ci` runs it as `prepare`), from the TypeScript
// sources into dist/ by esbuild, so `dvs` starts without a TypeScript loader. `npm start` and `npm run dvs` build
// first (their pre-scripts), so a developer who edits a source runs it; the test suite builds once before the tests
// (test/suite/global-setup.ts), and the benches build what they measure the same way (bench/bundled.js).
//
// An ES module bundle split at each dynamic import(): what the sources import lazily (a command, a probe, a heavy
// package) is a chunk of its own, read and compiled only by a run that needs it. Packages stay external (Node loads
// them from node_modules) except those below.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundled: packages made of many modules, which Node would otherwise find, read and compile one at a time (zod alone
 * is 96; undici and @peculiar/x509 with its ASN.1 packages took 120 and 170 ms of a `dvs scan` each), and the small
 * pure-JS ones a scan imports. None holds native code or reads its own files.
 */
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
  'ipaddr.js',
  'eventsource-parser',
  'reflect-metadata',
]);

/** Every package the sources may import, less the bundled ones (a bundled package's own imports are bundled too). */
function externals() {
  const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return Object.keys({ ...dependencies, ...devDependencies }).filter((name) => !BUNDLED.has(name));
}

/**
 * Modules that find the repository's files from their own place (src/lib/paths.ts, the migrations) keep their
 * source file's URL: `import.meta.url` becomes that file's path relative to the chunk it lands in, so a build
 * still finds them after the repository moves.
 */
function ownUrls(outdir) {
  return {
    name: 'own-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

/**
 * CommonJS packages bundled into an ES module still call require() for Node's own modules; an ES module has no
 * require, so each output file makes one.
 */
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

/** Builds `entryPoints` (paths from the repository root) into `outdir`. */
export async function build(entryPoints, outdir) {
  const esbuild = await import('esbuild');
  const absOut = path.resolve(ROOT, outdir);
  return esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entryPoints.map((entry) => path.join(ROOT, entry)),
    outdir: absOut,
    // Entries and chunks side by side in outdir, so every chunk is at the same place relative to the sources.
    entryNames: '[name]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    external: externals(),
    sourcemap: 'linked',
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: REQUIRE_BANNER },
    metafile: true,
    logLevel: 'warning',
    plugins: [ownUrls(absOut)],
  });
}

/** The output file of `entry` (a path from the repository root) in `outdir`. */
export function outputOf(entry, outdir) {
  return path.resolve(ROOT, outdir, `${path.basename(entry, '.ts')}.js`);
}

/** What dist/ was built from: every input esbuild read, this script, the lockfile and Node's major version. */
const INPUTS_FILE = path.join(ROOT, 'dist', 'inputs.json');

/** A digest of the files (paths from the repository root) and of what else decides the output; null if one is gone. */
function digestOf(files) {
  const hash = createHash('sha256').update(`node${process.versions.node.split('.')[0]}\0`);
  for (const file of ['scripts/build.js', 'package-lock.json', ...files]) {
    try {
      hash
        .update(`${file}\0`)
        .update(readFileSync(path.join(ROOT, file)))
        .update('\0');
    } catch {
      return null;
    }
  }
  return hash.digest('hex');
}

/** True when dist/ holds a build of exactly the inputs on disk now. */
function distIsCurrent() {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(INPUTS_FILE, 'utf8'));
  } catch {
    return false;
  }
  return digestOf(recorded.inputs) === recorded.digest;
}

/** Builds the command line into dist/ afresh, and records its inputs for --if-changed. */
async function buildDist() {
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const { metafile } = await build(['src/cli.ts'], 'dist');
  const inputs = Object.keys(metafile.inputs).sort();
  writeFileSync(INPUTS_FILE, JSON.stringify({ digest: digestOf(inputs), inputs }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // --if-changed (the test suite's global setup): dist/ is left as it is when no input changed since it was built,
  // as after `npm ci`, whose `prepare` just built it; a build costs seconds of CPU, the check milliseconds.
  if (!(process.argv.includes('--if-changed') && distIsCurrent())) await buildDist();
}
