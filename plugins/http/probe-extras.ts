// Small probes of the home page: the methods OPTIONS advertises, time to first byte over a few requests, and
// whether the canonical URL the page declares answers.
import type { HttpExchange, Net } from '../../src/net/types.ts';
import { getDomain } from 'tldts';
import { fetchOnce } from './fetch-chain.ts';
import { header } from './parse-headers.ts';
import type { CanonicalFacet, MethodsFacet, TimingFacet } from './types.ts';
import { probeUrl } from '../../src/net/site-url.ts';

export async function probeMethods(net: Net, pageUrl: string, signal: AbortSignal): Promise<MethodsFacet> {
  const { ex, error } = await fetchOnce(net, pageUrl, signal, { method: 'OPTIONS', maxBodyBytes: 1024 });
  const allow = ex === null ? null : header(ex.headers, 'allow');
  return {
    options_status: ex?.status ?? null,
    error,
    allow:
      allow === null
        ? []
        : [
            ...new Set(
              allow
                .split(',')
                .map((m) => m.trim().toUpperCase())
                .filter((m) => m !== ''),
            ),
          ].sort(),
  };
}

/** Extra samples beyond the home page fetch; the median of three damps one slow answer. */
const EXTRA_SAMPLES = 2;

export async function probeTiming(net: Net, home: HttpExchange | null, signal: AbortSignal): Promise<TimingFacet> {
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

/** Fetches the canonical URL when it is on the scanned registrable domain (never another site's page). */
export async function probeCanonical(
  net: Net,
  domain: string,
  canonical: string | null,
  signal: AbortSignal,
): Promise<CanonicalFacet> {
  if (canonical === null)
    return { url: null, same_site: null, fetched: false, status: null, redirects: null, error: null };
  const url = new URL(canonical);
  const sameSite =
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    getDomain(url.hostname, { allowPrivateDomains: true }) === getDomain(domain, { allowPrivateDomains: true });
  if (!sameSite)
    return { url: canonical, same_site: false, fetched: false, status: null, redirects: null, error: null };
  const { ex, error } = await fetchOnce(net, probeUrl(url, net.ports), signal, {
    followRedirects: true,
    maxBodyBytes: 1024,
  });
  return {
    url: canonical,
    same_site: true,
    fetched: true,
    status: ex?.status ?? null,
    redirects: ex === null ? null : Math.max(0, ex.chain.length - 1),
    error,
  };
}
