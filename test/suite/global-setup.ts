// Runs once in vitest's main process before any test file: compiles the command line into dist/ from the sources
// under test (scripts/build.js, as `npm ci` does) unless dist/ was built from exactly these sources already (as
// after `npm ci`), so the tests that start `dvs` processes run this tree's code,
// and builds the checked ruleset artifact the files share (ruleset.ts), so the workers do not each check the
// whole catalogue at the same moment.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadRunRuleset } from '../../src/catalogue/compiled-ruleset.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { SUITE_CACHE_DIR } from './ruleset.ts';

export default function setup(): void {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.js'), '--if-changed'], { stdio: 'inherit' });
  try {
    loadRunRuleset(SUITE_CACHE_DIR);
  } catch {
    // A broken rule file is reported by the tests that load the catalogue, each with its file and reason.
  }
}
