// Runs once in vitest's main process before any test file: builds the checked ruleset artifact the files share
// (ruleset.ts), so the workers do not each check the whole catalogue at the same moment.
import { loadRunRuleset } from '../../src/engine/compiled-ruleset.ts';
import { SUITE_CACHE_DIR } from './ruleset.ts';

export default function setup(): void {
  try {
    loadRunRuleset(SUITE_CACHE_DIR);
  } catch {
    // A broken rule file is reported by the tests that load the catalogue, each with its file and reason.
  }
}
