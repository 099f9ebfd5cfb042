// The reachability facts of one host name: what its A and AAAA records publish, and how each address answers.
import { failureFact } from '../../src/net/failure-fact.ts';
import type { DnsResponse, Net } from '../../src/net/types.ts';
import { distinctAnswers, type AddressFacts, type HostFacts } from './facts.ts';
import { probeHttp, probeHttps, probeTls } from './probe-address.ts';
import { planAddresses, publishedAddresses, type PlannedAddress } from './published.ts';

const RCODE_ERRORS: Record<string, string> = {
  NXDOMAIN: 'dns_nxdomain',
  SERVFAIL: 'dns_servfail',
  REFUSED: 'dns_refused',
};

type Lookup = { response: DnsResponse; error: null } | { response: null; error: string };

async function lookup(net: Net, host: string, type: 'A' | 'AAAA', signal: AbortSignal): Promise<Lookup> {
  try {
    return { response: await net.dns(host, type, { signal }), error: null };
  } catch (err) {
    return { response: null, error: failureFact(err) };
  }
}

/** A lookup's failure as a code: the network error, or the rcode of an answer that is not NOERROR. */
export function lookupError(l: Lookup): string | null {
  if (l.error !== null) return l.error;
  const rcode = l.response.rcode;
  return rcode === 'NOERROR' ? null : (RCODE_ERRORS[rcode] ?? 'dns_error');
}

/** The addresses the service's policy lets it connect to; none when it refuses them all or the name has none. */
async function allowedAddresses(net: Net, host: string, signal: AbortSignal): Promise<Set<string>> {
  try {
    return new Set((await net.resolve(host, { signal })).map((a) => a.address));
  } catch (err) {
    failureFact(err);
    return new Set();
  }
}

async function probeAddress(
  net: Net,
  host: string,
  planned: PlannedAddress,
  signal: AbortSignal,
): Promise<AddressFacts> {
  const { address, family, skipped } = planned;
  if (skipped !== null) return { address, family, probed: false, skipped, tls: null, https: null, http: null };
  const pin = { address, family };
  const [tls, https, http] = await Promise.all([
    probeTls(net, host, pin, signal),
    probeHttps(net, host, pin, signal),
    probeHttp(net, host, pin, signal),
  ]);
  return { address, family, probed: true, skipped: null, tls, https, http };
}

export async function collectHost(net: Net, host: string, signal: AbortSignal): Promise<HostFacts> {
  const [a, aaaa, allowed] = await Promise.all([
    lookup(net, host, 'A', signal),
    lookup(net, host, 'AAAA', signal),
    allowedAddresses(net, host, signal),
  ]);
  const v4 = a.response ? publishedAddresses(a.response.answers, host, 'A') : [];
  const v6 = aaaa.response ? publishedAddresses(aaaa.response.answers, host, 'AAAA') : [];
  const plan = planAddresses(v4, v6, allowed);
  const addresses = await Promise.all(plan.map((p) => probeAddress(net, host, p, signal)));
  return {
    host,
    dns_error: lookupError(a) ?? lookupError(aaaa),
    published_v4: v4.length,
    published_v6: v6.length,
    addresses,
    ...distinctAnswers(addresses),
  };
}
