// Addresses of the domain and of www, with their CNAME chains and TTLs, and of the hosts the domain points
// to (nameservers, mail exchangers).
import { NetError, type DnsRecord, type DnsResponse, type Net } from '../../src/net/types.ts';
import type { AddressFact, HostAddresses, HostFact } from './facts.ts';
import { recordsOf, sortedData, type Querier } from './query.ts';

/** The CNAME targets from `name` in the order the answer chains them; stops at a repeated name. */
export function cnameChain(name: string, answers: readonly DnsRecord[]): string[] {
  const next = new Map(answers.filter((r) => r.type === 'CNAME').map((r) => [r.name, String(r.data)]));
  const chain: string[] = [];
  for (let current = next.get(name); current !== undefined && !chain.includes(current); current = next.get(current)) {
    chain.push(current);
  }
  return chain;
}

/** The addresses the scanner's policy accepts for a host; none when it refuses all or the name has none. */
async function allowedAddresses(net: Net, host: string, signal: AbortSignal): Promise<Set<string>> {
  try {
    return new Set((await net.resolve(host, { signal })).map((a) => a.address));
  } catch (err) {
    if (err instanceof NetError && !['dns_timeout', 'timeout', 'aborted'].includes(err.code)) return new Set();
    throw err;
  }
}

function rcodeOf(a: DnsResponse, aaaa: DnsResponse): string {
  return a.rcode === 'NOERROR' && aaaa.rcode !== 'NOERROR' ? aaaa.rcode : a.rcode;
}

function addressFacts(response: DnsResponse, type: 'A' | 'AAAA', allowed: Set<string>): AddressFact[] {
  const seen = new Map<string, AddressFact>();
  for (const r of recordsOf(response, type)) {
    const address = String(r.data);
    const known = seen.get(address);
    if (!known || r.ttl < known.ttl) seen.set(address, { address, ttl: r.ttl, policy_allowed: allowed.has(address) });
  }
  return [...seen.values()].sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
}

/** A name of the domain itself (the apex, www): a timeout of the resolver propagates. */
export async function hostAddresses(q: Querier, net: Net, signal: AbortSignal, name: string): Promise<HostAddresses> {
  const [a, aaaa, allowed] = await Promise.all([
    q.ask(name, 'A'),
    q.ask(name, 'AAAA'),
    allowedAddresses(net, name, signal),
  ]);
  return {
    name,
    rcode: rcodeOf(a, aaaa),
    cname_chain: cnameChain(name, a.answers.length > 0 ? a.answers : aaaa.answers),
    a: addressFacts(a, 'A', allowed),
    aaaa: addressFacts(aaaa, 'AAAA', allowed),
  };
}

/** A host the domain points to, resolved through the resolver without glue; no connection is made to it. */
export async function pointedHost(q: Querier, name: string): Promise<HostFact> {
  const [a, aaaa] = await Promise.all([q.askPointed(name, 'A'), q.askPointed(name, 'AAAA')]);
  return {
    name,
    rcode: rcodeOf(a, aaaa),
    is_cname: [...a.answers, ...aaaa.answers].some((r) => r.type === 'CNAME' && r.name === name),
    ipv4: sortedData(recordsOf(a, 'A')),
    ipv6: sortedData(recordsOf(aaaa, 'AAAA')),
  };
}
