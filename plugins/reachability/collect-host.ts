// The reachability facts of one host name: what its A and AAAA records publish, and how each address answers.
import { failureFact } from '../../src/net/failure-fact.ts';
import type { DnsResponse, Net } from '../../src/net/types.ts';
import {
  distinctAnswers,
  type AddressFacts,
  type HandshakeAddressFacts,
  type HandshakeFacts,
  type HostFacts,
} from './facts.ts';
import { probeHttp, probeHttps, probeTls } from './address-checks.ts';
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

async function handshakeAddress(
  net: Net,
  host: string,
  planned: PlannedAddress,
  signal: AbortSignal,
): Promise<HandshakeAddressFacts> {
  const { address, family, skipped } = planned;
  if (skipped !== null) return { address, family, probed: false, skipped, tls: null };
  return { address, family, probed: true, skipped: null, tls: await probeTls(net, host, { address, family }, signal) };
}

/** A host's published addresses and the plan of which to connect to. */
async function plan(net: Net, host: string, signal: AbortSignal) {
  const [a, aaaa, allowed] = await Promise.all([
    lookup(net, host, 'A', signal),
    lookup(net, host, 'AAAA', signal),
    allowedAddresses(net, host, signal),
  ]);
  const v4 = a.response ? publishedAddresses(a.response.answers, host, 'A') : [];
  const v6 = aaaa.response ? publishedAddresses(aaaa.response.answers, host, 'AAAA') : [];
  return {
    published: {
      host,
      dns_error: lookupError(a) ?? lookupError(aaaa),
      published_v4: v4.length,
      published_v6: v6.length,
    },
    planned: planAddresses(v4, v6, allowed),
  };
}

/** Every address of the host: its TLS handshake, GET / over HTTPS and GET / over HTTP on each. */
export async function collectHost(net: Net, host: string, signal: AbortSignal): Promise<HostFacts> {
  const { published, planned } = await plan(net, host, signal);
  const addresses = await Promise.all(planned.map((p) => probeAddress(net, host, p, signal)));
  return { ...published, addresses, ...distinctAnswers(addresses) };
}

/** Every address of the host, its TLS handshake and nothing more. */
export async function collectHandshakes(net: Net, host: string, signal: AbortSignal): Promise<HandshakeFacts> {
  const { published, planned } = await plan(net, host, signal);
  const addresses: HandshakeAddressFacts[] = [];
  for (const p of planned) addresses.push(await handshakeAddress(net, host, p, signal));
  return { ...published, addresses, leaf_sha256s: distinctAnswers(addresses).leaf_sha256s };
}
