// Runs once in vitest's main process before any test file: builds the checked ruleset artifact the files share
// (ruleset.ts), so the workers do not each check the whole catalogue at the same moment, and the command line's
// bundle (bin/cli-bundle.js), so the tests that start `dvs` processes do not each build it at once.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadRunRuleset } from '../../src/catalogue/compiled-ruleset.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { SUITE_CACHE_DIR } from './ruleset.ts';

export default function setup(): void {
  // `dvs help` loads the bundle, building it if a source changed.
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'dvs.js'), 'help'], { stdio: 'ignore' });
  try {
    loadRunRuleset(SUITE_CACHE_DIR);
  } catch {
    // A broken rule file is reported by the tests that load the catalogue, each with its file and reason.
  }
}
