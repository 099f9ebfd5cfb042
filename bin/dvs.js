#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx, so a clean `npm ci` needs no build step.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
