// What one scan cost, as bench/observatory.bench.ts measures it for each scanner, and the median of several.
import { median } from './median.ts';

export interface ScanCost {
  wallMs: number;
  cpuMs: number;
  /** TCP connections the world's sites accepted over HTTPS and over HTTP, and DNS queries its resolver answered. */
  https: number;
  http: number;
  dns: number;
}

/** Each figure's median over the runs, apart (the median run by wall time may not have the median CPU). */
export const medianCost = (runs: readonly ScanCost[]): ScanCost => ({
  wallMs: median(runs.map((c) => c.wallMs)),
  cpuMs: median(runs.map((c) => c.cpuMs)),
  https: median(runs.map((c) => c.https)),
  http: median(runs.map((c) => c.http)),
  dns: median(runs.map((c) => c.dns)),
});
