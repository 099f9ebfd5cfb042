import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/suite/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker less than the cores: a single worker on two cores, which runs the files one
    // at a time while most of them wait on the network. One worker more than the cores, and never fewer than
    // three: some files spend most of their time waiting on purpose (a lease, a deadline, a slow site, a child
    // process, Chromium), and the extra worker keeps both cores busy meanwhile.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // Each worker runs its files one after another in one module graph: the sources, the catalogue
    // (test/suite/ruleset.ts) and the world (test/suite/world.ts) load once per worker, not once per file.
    // Files must therefore leave nothing behind: servers stopped, process state restored.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
