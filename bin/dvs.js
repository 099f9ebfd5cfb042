#!/usr/bin/env node
// The command line, as compiled into dist/ by `npm ci` (scripts/build.js runs as `prepare`).
import module from 'node:module';
import process from 'node:process';

// From Node 22.1, Node keeps V8's code cache of dist/ in its own cache directory; Node 20 has no such cache.
module.enableCompileCache?.();

let cli;
try {
  cli = await import('../dist/cli.js');
} catch (err) {
  if (err.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/cli.js')) throw err;
  process.stderr.write('dvs: dist/ is not built: run `npm ci` or `npm run build`\n');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv.slice(2));
