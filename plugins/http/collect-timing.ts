// Time to first byte of the home page over a few requests.
import type { HttpExchange, Net } from '../../src/net/types.ts';
import { fetchOnce } from './fetch-chain.ts';
import type { TimingFacet } from './types.ts';

/** Extra samples beyond the home page fetch; the median of three damps one slow answer. */
const EXTRA_SAMPLES = 2;

export async function collectTiming(net: Net, home: HttpExchange | null, signal: AbortSignal): Promise<TimingFacet> {
  if (home === null) return { samples_ms: [], median_ttfb_ms: null };
  const samples = [home.timings.ttfbMs];
  // Sequential on purpose: parallel requests would measure the server under load.
  for (let i = 0; i < EXTRA_SAMPLES; i += 1) {
    // Fresh: a sample served from an earlier answer would measure nothing.
    const { ex } = await fetchOnce(net, home.url, signal, { maxBodyBytes: 1024, fresh: true });
    if (ex !== null) samples.push(ex.timings.ttfbMs);
  }
  const sorted = samples.map((s) => Math.round(s)).sort((a, b) => a - b);
  return { samples_ms: sorted, median_ttfb_ms: sorted[Math.floor(sorted.length / 2)]! };
}
