// The repository's rule catalogue for tests that scan or judge with it. Checking the rule files (schema,
// logic, examples, lock) is the job of test/rules and test/engine, which load them through checkedCatalogue();
// every other test loads the checked artifact a run loads (src/catalogue/compiled-ruleset.ts), built once for the
// whole suite in SUITE_CACHE_DIR, so the catalogue is not checked again in every file and every service start.
import path from 'node:path';
import { loadRunRuleset } from '../../src/catalogue/compiled-ruleset.ts';
import { loadRuleset, type CheckedRuleset } from '../../src/catalogue/load-ruleset.ts';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';

/**
 * Derived files the suite shares between files and runs (gitignored). The ruleset artifact is keyed by every
 * rule and schema file, so an edited rule is never served stale; set it as DVS_CACHE_DIR for services and CLIs.
 */
export const SUITE_CACHE_DIR = path.join(REPO_ROOT, '.cache', 'test');

let loaded: Ruleset | undefined;

/** The catalogue without its examples (the artifact leaves them out); loaded once per test file. */
export function catalogue(): Ruleset {
  return (loaded ??= loadRunRuleset(SUITE_CACHE_DIR));
}

let checked: CheckedRuleset | undefined;

/**
 * The catalogue loaded from its rule files, every rule, schema and example checked (seconds on two busy cores);
 * once per worker, since a worker runs its files one after another in one module graph (vitest.config.ts).
 */
export function checkedCatalogue(): CheckedRuleset {
  return (checked ??= loadRuleset());
}
