// Runs a module of the repository (a path from its root) from its bundle, as bin/dvs.js runs the command line:
// a bench that measures the service measures it as it ships, not under tsx's loader (a thread of its own).
import process from 'node:process';
import { runBundled } from '../bin/cli-bundle.js';

await runBundled(process.argv[2]);
