#!/usr/bin/env node
// The CLI runs the TypeScript sources, bundled on first use (cli-bundle.js), so a clean `npm ci` needs no build step.
import process from 'node:process';
import { loadCli } from './cli-bundle.js';

const { main } = await loadCli(process.argv[2]);
process.exitCode = await main(process.argv.slice(2));
