// A CommonJS package loaded on its first use, synchronously. For heavy packages that only some commands, some
// probes or some fallbacks need: a run that never uses them does not pay their import at start.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter for package `id`, required on first call (Node caches it after). */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
