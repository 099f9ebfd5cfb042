// The world's DNS data: one zone per site, built from its address and records, and the lookup a recursive
// resolver in front of these zones would answer with. Pure: the DNS server only adds the transport.
import { FLEET_CACHE, type Fleet } from './fleet.ts';
import { BoundedCache } from '../../src/lib/bounded-cache.ts';
import type { Site, DnsRecordSpec } from './site-config.ts';
import { encodeSvcb } from './svcb.ts';

/** A record in dns-packet's answer shape (`type` is dns-packet's name, `UNKNOWN_65` for HTTPS). */
export interface WireRecord {
  name: string;
  type: string;
  ttl: number;
  class: 'IN';
  data: unknown;
}

export type LookupResult =
  { kind: 'drop' } | { kind: 'answer'; rcode: number; ad: boolean; answers: WireRecord[]; authorities: WireRecord[] };

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

/** Defaults of the generated SOA; the serial is fixed so answers do not change between runs. */
export const SOA_DEFAULTS = { serial: 2025010101, refresh: 7200, retry: 3600, expire: 1209600, minimum: 3600 };
const TTL = 300;
const ZONE_TTL = 3600;
const MAX_CNAME_HOPS = 8;

/** dns-packet's names for the types it has no codec for. */
const WIRE_TYPE: Record<string, string> = { HTTPS: 'UNKNOWN_65', SVCB: 'UNKNOWN_64' };

interface Zone {
  apex: string;
  site: Site;
  /** name -> wire type -> records */
  names: Map<string, Map<string, WireRecord[]>>;
}

function ownerName(name: string, apex: string): string {
  const n = name.toLowerCase();
  if (n === '@') return apex;
  if (n.endsWith('.')) return n.slice(0, -1);
  if (n === apex || n.endsWith(`.${apex}`)) return n;
  return `${n}.${apex}`;
}

/** TXT strings longer than 255 bytes are split as a zone file loader would. */
function txtStrings(data: string | string[]): Buffer[] {
  const out: Buffer[] = [];
  for (const s of Array.isArray(data) ? data : [data]) {
    const b = Buffer.from(s);
    if (b.length === 0) out.push(b);
    for (let i = 0; i < b.length; i += 255) out.push(b.subarray(i, i + 255));
  }
  return out;
}

function wireData(rec: DnsRecordSpec, apex: string): unknown {
  switch (rec.type) {
    case 'TXT':
      return txtStrings(rec.data);
    case 'MX':
      return { preference: rec.data.preference, exchange: rec.data.exchange.replace(/\.$/, '') };
    case 'SOA':
      return {
        mname: rec.data.mname ?? `ns1.${apex}`,
        rname: rec.data.rname ?? `hostmaster.${apex}`,
        serial: rec.data.serial ?? SOA_DEFAULTS.serial,
        refresh: rec.data.refresh ?? SOA_DEFAULTS.refresh,
        retry: rec.data.retry ?? SOA_DEFAULTS.retry,
        expire: rec.data.expire ?? SOA_DEFAULTS.expire,
        minimum: rec.data.minimum ?? SOA_DEFAULTS.minimum,
      };
    case 'HTTPS':
    case 'SVCB':
      return encodeSvcb(rec.data);
    case 'DS':
      return { ...rec.data, digest: Buffer.from(rec.data.digest, 'hex') };
    case 'DNSKEY':
      return { ...rec.data, key: Buffer.from(rec.data.key, 'base64') };
    default:
      return rec.data;
  }
}

function add(zone: Zone, rec: WireRecord): void {
  let types = zone.names.get(rec.name);
  if (!types) zone.names.set(rec.name, (types = new Map<string, WireRecord[]>()));
  const list = types.get(rec.type) ?? [];
  list.push(rec);
  types.set(rec.type, list);
}

function rr(name: string, type: string, data: unknown, ttl = TTL): WireRecord {
  return { name, type, ttl, class: 'IN', data };
}

function buildZone(site: Site, apex: string, siteApexes: string[]): Zone {
  const { spec } = site;
  const zone: Zone = { apex, site, names: new Map() };
  const hosts = [spec.domain, ...spec.aliases].filter((h) => h === apex || h.endsWith(`.${apex}`));
  const generated: WireRecord[] = [
    rr(apex, 'SOA', wireData({ name: '@', type: 'SOA', data: {} }, spec.domain), ZONE_TTL),
    ...site.nameServers.map((ns) => rr(apex, 'NS', ns.name, ZONE_TTL)),
  ];
  if (apex === spec.domain) generated.push(...site.nameServers.map((ns) => rr(ns.name, 'A', ns.address, ZONE_TTL)));
  for (const host of hosts) {
    generated.push(rr(host, 'A', site.address));
    if (spec.ipv6) generated.push(rr(host, 'AAAA', '::1'));
  }
  const given = spec.dns.records
    .map((rec) => ({ rec, name: ownerName(rec.name, spec.domain) }))
    .filter(({ name }) => zoneOf(name, siteApexes) === apex);
  // A type the site sets at a name replaces what the world would have made for that name and type.
  const overridden = new Set(given.map(({ rec, name }) => `${name}|${WIRE_TYPE[rec.type] ?? rec.type}`));
  for (const rec of generated) if (!overridden.has(`${rec.name}|${rec.type}`)) add(zone, rec);
  for (const { rec, name } of given)
    add(zone, rr(name, WIRE_TYPE[rec.type] ?? rec.type, wireData(rec, spec.domain), rec.ttl ?? TTL));
  // Empty non-terminals exist (NODATA, not NXDOMAIN), as in any real zone.
  for (const name of [...zone.names.keys()]) {
    for (let n = name; n !== apex && n.includes('.'); n = n.slice(n.indexOf('.') + 1)) {
      if (!zone.names.has(n)) zone.names.set(n, new Map());
    }
  }
  return zone;
}

function zoneOf(name: string, apexes: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const apex of apexes) {
    if ((name === apex || name.endsWith(`.${apex}`)) && (!best || apex.length > best.length)) best = apex;
  }
  return best;
}

function zonesOf(site: Site): Map<string, Zone> {
  const { domain, aliases } = site.spec;
  // An alias outside the site's domain is the apex of a zone of its own.
  const apexes = [domain, ...aliases.filter((a) => !a.endsWith(`.${domain}`) && !a.startsWith('*.'))];
  for (const rec of site.spec.dns.records) {
    const owner = ownerName(rec.name, domain);
    if (!zoneOf(owner, apexes))
      throw new Error(`site ${site.name}: record ${rec.name} ${rec.type} lies outside its zones`);
  }
  return new Map(apexes.map((apex) => [apex, buildZone(site, apex, apexes)]));
}

export class Zones {
  private readonly zones = new Map<string, Zone>();
  /** The zones of fleet domains asked about lately: each is made on first use, from the domain's site. */
  private readonly fleetZones = new BoundedCache<Zone>(FLEET_CACHE);

  constructor(
    sites: readonly Site[],
    private readonly fleet?: Pick<Fleet, 'site'>,
  ) {
    for (const site of sites) for (const [apex, zone] of zonesOf(site)) this.zones.set(apex, zone);
  }

  /** Serves `site`'s zones in place of those of the site of the same name (a site changing while the world runs). */
  replace(site: Site): void {
    const zones = zonesOf(site);
    for (const [apex, zone] of this.zones) if (zone.site.name === site.name) this.zones.delete(apex);
    for (const [apex, zone] of zones) this.zones.set(apex, zone);
  }

  lookup(qname: string, qtype: string): LookupResult {
    const answers: WireRecord[] = [];
    let name = qname.toLowerCase().replace(/\.$/, '');
    for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
      const zone = this.zoneFor(name);
      if (!zone) return { kind: 'answer', rcode: RCODE.NXDOMAIN, ad: false, answers, authorities: [] };
      const { behaviour, ad } = zone.site.spec.dns;
      if (behaviour === 'timeout') return { kind: 'drop' };
      if (behaviour !== 'normal') {
        const rcode = { nxdomain: RCODE.NXDOMAIN, servfail: RCODE.SERVFAIL, refused: RCODE.REFUSED }[behaviour];
        return { kind: 'answer', rcode, ad: false, answers, authorities: [] };
      }
      const soa = zone.names.get(zone.apex)?.get('SOA') ?? [];
      const found = this.node(zone, name);
      if (!found) return { kind: 'answer', rcode: RCODE.NXDOMAIN, ad, answers, authorities: soa };
      const owner = hop === 0 ? qname.replace(/\.$/, '') : name;
      const named = (recs: WireRecord[]) => recs.map((r) => ({ ...r, name: owner }));
      const cname = found.get('CNAME');
      if (cname && qtype !== 'CNAME') {
        answers.push(...named(cname));
        name = String(cname[0]!.data);
        continue;
      }
      const recs = qtype === 'ANY' ? [...found.values()].flat() : (found.get(qtype) ?? []);
      answers.push(...named(recs));
      return { kind: 'answer', rcode: RCODE.NOERROR, ad, answers, authorities: recs.length ? [] : soa };
    }
    return { kind: 'answer', rcode: RCODE.SERVFAIL, ad: false, answers: [], authorities: [] };
  }

  /** The zone a name lies in: the one whose apex is the name's longest suffix. */
  private zoneFor(name: string): Zone | undefined {
    for (let n = name; ; n = n.slice(n.indexOf('.') + 1)) {
      const zone = this.zones.get(n) ?? this.fleetZone(n);
      if (zone) return zone;
      if (!n.includes('.')) return undefined;
    }
  }

  private fleetZone(apex: string): Zone | undefined {
    const cached = this.fleetZones.get(apex);
    if (cached) return cached;
    const site = this.fleet?.site(apex);
    if (!site) return undefined;
    const zone = buildZone(site, apex, [apex]);
    this.fleetZones.set(apex, zone);
    return zone;
  }

  /** The records at a name, through a wildcard at its closest encloser when the name itself does not exist. */
  private node(zone: Zone, name: string): Map<string, WireRecord[]> | undefined {
    const exact = zone.names.get(name);
    if (exact) return exact;
    for (let n = name; n !== zone.apex && n.includes('.');) {
      n = n.slice(n.indexOf('.') + 1);
      if (zone.names.has(n)) return zone.names.get(`*.${n}`);
    }
    return undefined;
  }
}
