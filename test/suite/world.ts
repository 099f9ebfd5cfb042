// The fixture internet of test/world/sites, started once per test worker and shared by every file that needs
// the standard sites as they are (the suite runs files one after another in each worker, without isolation, so
// this module and its world outlive a file). Files that need other sites, a latency, trusted agent keys or a
// world they stop themselves call startWorld(). The sites keep no state a test can change, so the files that
// share a world stay independent of each other and of their order.
import { startWorld, type World } from '../world/index.ts';

/** The shared world: the worker's exit, not the file, stops it, and it issues no certificates to others. */
export type SharedWorld = Omit<World, 'issueCertificate' | 'stop'>;

let started: Promise<World> | undefined;

export function useWorld(): Promise<SharedWorld> {
  started ??= startWorld();
  return started;
}
