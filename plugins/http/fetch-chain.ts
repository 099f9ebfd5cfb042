// Follows a URL hop by hop, one guarded request per hop, so every hop's status, Location, HSTS and cookies
// are observed (the network layer's own redirect following reports only the final response's headers).
import { failureFact } from '../../src/net/failure-fact.ts';
import type { HttpExchange, HttpRequestOptions, Net } from '../../src/net/types.ts';
import { probeUrl } from '../../src/net/site-url.ts';
import type { Chain, Hop } from './types.ts';
import { locationOf } from '../../src/net/location.ts';

/** Redirects recorded before the chain is cut (RFC 9110 leaves the limit to the client; browsers use 20). */
const MAX_HOPS = 10;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface ChainResult {
  chain: Chain;
  /** Every response received, in order; the last is the final one. */
  exchanges: HttpExchange[];
}

export type ChainRequest = Pick<HttpRequestOptions, 'headers' | 'decompress' | 'maxBodyBytes'>;

function scheme(url: URL): string {
  return url.protocol.replace(/:$/, '');
}

export async function followChain(
  net: Net,
  start: string,
  signal: AbortSignal,
  opts: ChainRequest = {},
): Promise<ChainResult> {
  const hops: Hop[] = [];
  const exchanges: HttpExchange[] = [];
  const visited = new Set<string>();
  let error: string | null = null;
  let loop = false;
  let next = new URL(start);

  // Every pass either follows the redirect to `next` or leaves the loop.
  for (;;) {
    const url = probeUrl(next, net.ports);
    visited.add(url);
    let ex: HttpExchange;
    try {
      ex = await net.request(url, { ...opts, method: 'GET', followRedirects: false, signal });
    } catch (err) {
      error = failureFact(err);
      break;
    }
    exchanges.push(ex);
    const location = locationOf(ex.fieldLines.location);
    let target: URL | null = null;
    if (location !== null) {
      try {
        target = new URL(location, url);
      } catch {
        target = null;
      }
    }
    hops.push({
      url,
      status: ex.status,
      location: target?.href ?? null,
      // Only the first field line counts (RFC 6797 section 8.1).
      strict_transport_security: url.startsWith('https:')
        ? (ex.fieldLines['strict-transport-security']?.[0] ?? null)
        : null,
    });
    if (!REDIRECTS.has(ex.status) || target === null || (target.protocol !== 'http:' && target.protocol !== 'https:'))
      break;
    if (visited.has(probeUrl(target, net.ports))) {
      loop = true;
      break;
    }
    if (hops.length > MAX_HOPS) {
      error = 'too_many_redirects';
      break;
    }
    next = target;
  }

  const first = hops[0];
  const last = hops.at(-1);
  const firstLocation = first?.location ? new URL(first.location) : null;
  const lastUrl = last ? new URL(last.url) : null;
  return {
    exchanges,
    chain: {
      url: start,
      error,
      hops,
      redirects: Math.max(0, hops.length - 1),
      loop,
      downgrade: hops.some((h, i) => i > 0 && h.url.startsWith('http:') && hops[i - 1]!.url.startsWith('https:')),
      first_status: first?.status ?? null,
      first_location: first?.location ?? null,
      first_location_scheme: firstLocation ? scheme(firstLocation) : null,
      first_location_same_host: firstLocation ? firstLocation.hostname === new URL(start).hostname : null,
      final_url: last?.url ?? null,
      final_scheme: lastUrl ? scheme(lastUrl) : null,
      final_host: lastUrl ? lastUrl.hostname : null,
      final_status: last?.status ?? null,
    },
  };
}

/** One request (the network layer follows redirects when asked); a network failure is returned as its code. */
export async function fetchOnce(
  net: Net,
  url: string,
  signal: AbortSignal,
  opts: Omit<HttpRequestOptions, 'signal'> = {},
): Promise<{ ex: HttpExchange; error: null } | { ex: null; error: string }> {
  try {
    return { ex: await net.request(url, { ...opts, signal }), error: null };
  } catch (err) {
    return { ex: null, error: failureFact(err) };
  }
}
