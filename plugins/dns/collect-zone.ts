// The zone around the domain: its SOA, its NS set and each nameserver's addresses, and the TTLs the
// resolver reports. Only what a recursive resolver shows; nothing here asks a nameserver directly.
import type { DnsResponse } from '../../src/net/types.ts';
import { pointedHost } from './collect-addresses.ts';
import type { NsFacet, SoaFacet, TtlFacet } from './facts.ts';
import { distinctNetworks } from './networks.ts';
import { minTtl, recordsOf, type Querier } from './query.ts';

/** RFC 1035 allows 13 nameservers in a classic referral; more is not worth resolving one by one. */
const MAX_NS_HOSTS = 13;

interface SoaData {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

/**
 * The zone the domain lives in: the domain when it has an SOA, else the owner of the SOA the resolver puts in
 * the authority section of its negative answer.
 */
async function zoneOf(q: Querier, domain: string): Promise<{ zone: string | null; soaResponse: DnsResponse }> {
  const own = await q.ask(domain, 'SOA');
  const answer = recordsOf(own, 'SOA')[0];
  if (answer) return { zone: answer.name, soaResponse: own };
  const authority = own.authorities.find((r) => r.type === 'SOA');
  if (!authority || authority.name === domain) return { zone: null, soaResponse: own };
  return { zone: authority.name, soaResponse: await q.ask(authority.name, 'SOA') };
}

export async function collectSoa(q: Querier, domain: string): Promise<SoaFacet> {
  const { zone, soaResponse } = await zoneOf(q, domain);
  const record = recordsOf(soaResponse, 'SOA')[0];
  const soa = (record?.data ?? null) as SoaData | null;
  return {
    zone,
    rcode: soaResponse.rcode,
    mname: soa?.mname ?? null,
    rname: soa?.rname ?? null,
    serial: soa?.serial ?? null,
    refresh: soa?.refresh ?? null,
    retry: soa?.retry ?? null,
    expire: soa?.expire ?? null,
    minimum: soa?.minimum ?? null,
    ttl: record?.ttl ?? null,
  };
}

/** The NS answer for the domain, or for its enclosing zone when the domain is not a zone apex. */
async function nsResponse(q: Querier, domain: string): Promise<{ zone: string | null; response: DnsResponse }> {
  const [own, { zone }] = await Promise.all([q.ask(domain, 'NS'), zoneOf(q, domain)]);
  if (recordsOf(own, 'NS').length > 0) return { zone: domain, response: own };
  if (zone === null || zone === domain) return { zone, response: own };
  return { zone, response: await q.ask(zone, 'NS') };
}

/**
 * The NS set, and with `withHosts` each nameserver's addresses: two questions per nameserver that only the
 * rules about the nameservers' hosts and networks read (none of a Quick Scan's), so they are asked only for them.
 */
export async function collectNs(q: Querier, domain: string, withHosts: boolean): Promise<NsFacet> {
  const { zone, response } = await nsResponse(q, domain);
  const records = recordsOf(response, 'NS');
  const names = [...new Set(records.map((r) => String(r.data)))].sort();
  const hosts = withHosts ? await Promise.all(names.slice(0, MAX_NS_HOSTS).map((name) => pointedHost(q, name))) : null;
  return {
    zone,
    rcode: response.rcode,
    ttl: minTtl(records),
    names,
    hosts,
    networks: hosts && distinctNetworks(hosts.flatMap((h) => [...h.ipv4, ...h.ipv6])),
  };
}

export async function collectTtl(q: Querier, domain: string): Promise<TtlFacet> {
  const [a, aaaa, ns, mx, soa] = await Promise.all([
    q.ask(domain, 'A'),
    q.ask(domain, 'AAAA'),
    nsResponse(q, domain),
    q.ask(domain, 'MX'),
    zoneOf(q, domain),
  ]);
  const ttls = [...recordsOf(a, 'A'), ...recordsOf(aaaa, 'AAAA')].map((r) => r.ttl);
  return {
    address_min: ttls.length ? Math.min(...ttls) : null,
    address_max: ttls.length ? Math.max(...ttls) : null,
    ns: minTtl(recordsOf(ns.response, 'NS')),
    mx: minTtl(recordsOf(mx, 'MX')),
    soa: minTtl(recordsOf(soa.soaResponse, 'SOA')),
  };
}
