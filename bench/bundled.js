// Runs a module of the repository (a path from its root) compiled as dist/ is (scripts/build.js), into
// node_modules/.cache/bench-build/: a bench that measures the service measures it as it ships, not under tsx's
// loader (a thread of its own).
import { rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { build, outputOf } from '../scripts/build.js';

const entry = process.argv[2];
const outdir = path.join('node_modules', '.cache', 'bench-build', path.basename(entry, '.ts'));
rmSync(outdir, { recursive: true, force: true });
await build([entry], outdir);
await import(pathToFileURL(outputOf(entry, outdir)).href);
