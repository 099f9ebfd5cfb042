// The certificate served for www.<domain>: people and agents type both names. It is read from the handshake of
// the scan's HTTPS connection to www, which its requests there use too.
import type { TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import { NetError, type Net } from '../../src/net/types.ts';
import { chainFacts } from './chain.ts';
import { errorCode, observed } from './handshake.ts';
import { anchorsFor } from './trust-anchors.ts';

/** The schema's `www` facet (schemas/observations/tls.json). */
export type WwwFacts = NonNullable<TlsObservations['www']>;

const NO_NAME = new Set(['dns_nxdomain', 'dns_nodata']);

async function resolves(
  net: Net,
  host: string,
  signal: AbortSignal,
): Promise<{ resolves: boolean | null; error: string | null }> {
  try {
    return { resolves: (await net.resolve(host, { signal })).length > 0, error: null };
  } catch (err) {
    if (err instanceof NetError && NO_NAME.has(err.code)) return { resolves: false, error: err.code };
    if (err instanceof NetError && err.code === 'policy_refused') return { resolves: true, error: err.code };
    return { resolves: null, error: errorCode(err).code };
  }
}

export async function collectWww(net: Net, domain: string, signal: AbortSignal): Promise<WwwFacts> {
  const host = `www.${domain}`;
  const lookup = await resolves(net, host, signal);
  const none = { chain_verified: null, hostname_match: null, sha256: null };
  if (lookup.resolves !== true || lookup.error)
    return { resolves: lookup.resolves, reachable: false, error: lookup.error, ...none };
  const a = await observed(net, host, signal);
  if (a.outcome !== 'accepted') return { resolves: true, reachable: a.outcome === 'refused', error: a.error, ...none };
  const chain = chainFacts(a.value, host, anchorsFor(net.ca));
  return {
    resolves: true,
    reachable: true,
    error: null,
    chain_verified: chain.chain_verified,
    hostname_match: chain.hostname_match,
    sha256: chain.leaf?.sha256 ?? null,
  };
}
