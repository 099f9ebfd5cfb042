// How far a service process lets its heap grow between major garbage collections. V8 picks the factor from its
// collector's speed, up to 4x the heap that survived the last collection, which suits a browser tab. A service
// whose scans keep objects across network waits promotes much of its garbage, so under a flood its old space
// grew to two to three times what was live (peak RSS 264 to 290 MB with about 50 MB live, four scans running):
// a factor of 2, V8's own limit for memory-constrained devices, held the peak at 200 to 223 MB with no
// measurable CPU cost (bench/memory.bench.ts, 100 Full Validations, 2026-11-28). V8 reads the flag at each
// major collection, so setting it once the process runs takes effect (measured).
import v8 from 'node:v8';

const FLAG = 'heap-growing-percent';

/** The old generation's growth factor, as V8's percent (100: twice the surviving heap). */
export const HEAP_GROWING_PERCENT = 100;

/**
 * The V8 flag that bounds heap growth, or null when the operator gave Node one (on its command line or in
 * NODE_OPTIONS, where V8 takes `-` and `_` alike): theirs stands.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  const given = [...execArgv, nodeOptions ?? ''].join(' ').replaceAll('_', '-');
  return given.includes(`--${FLAG}`) ? null : `--${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/** Bounds this process's heap growth (see above). */
export function boundHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) v8.setFlagsFromString(flag);
}
