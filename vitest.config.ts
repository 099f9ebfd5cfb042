import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/suite/global-setup.ts'],
    pool: 'forks',
    // Each worker runs its files one after another in one module graph: the sources, the catalogue
    // (test/suite/ruleset.ts) and the world (test/suite/world.ts) load once per worker, not once per file.
    // Files must therefore leave nothing behind: servers stopped, process state restored.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
