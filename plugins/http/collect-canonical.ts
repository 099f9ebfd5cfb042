// Whether the canonical URL the home page declares answers.
import type { Net } from '../../src/net/types.ts';
import { getDomain } from 'tldts';
import { fetchOnce } from './fetch-chain.ts';
import type { CanonicalFacet } from './types.ts';
import { probeUrl } from '../../src/net/site-url.ts';

/** Fetches the canonical URL when it is on the scanned registrable domain (never another site's page). */
export async function collectCanonical(
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
