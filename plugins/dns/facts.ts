// The shape of the `dns` observations namespace, one interface per facet; schemas/observations/dns.json
// is its JSON Schema and the two must agree (the provider's test validates real output against the schema).
import type { CaaRecordFacts } from './parse-caa.ts';
import type { DmarcFacts } from './parse-dmarc.ts';
import type { SpfFacts, SpfQualifier } from './parse-spf.ts';

/**
 * The response code a lookup ended with: the DNS rcode, or TIMEOUT when a lookup of a name the domain points
 * to (a nameserver, mail exchanger, SPF include, report destination, alias target) got no answer in time.
 */
export type Rcode = string;

export interface AddressFact {
  address: string;
  /** TTL as the resolver returned it: the time left in its cache, at most the zone's TTL. */
  ttl: number;
  /** Whether the scanner's address policy (public unicast only, unless widened by configuration) accepts it. */
  policy_allowed: boolean;
}

export interface HostAddresses {
  name: string;
  /** The A query's rcode, or the AAAA query's when that one failed and the A query did not. */
  rcode: Rcode;
  /** CNAME targets in the order the chain visits them; empty when the name has no CNAME. */
  cname_chain: string[];
  a: AddressFact[];
  aaaa: AddressFact[];
}

/** A name the domain points to (nameserver, mail exchanger), resolved without glue through the resolver. */
export interface HostFact {
  name: string;
  rcode: Rcode;
  /** The name is an alias (a CNAME), which RFC 2181 section 10.3 forbids for NS and MX targets. */
  is_cname: boolean;
  ipv4: string[];
  ipv6: string[];
}

export interface AddressesFacet {
  apex: HostAddresses;
  www: HostAddresses;
}

export interface NsFacet {
  /** The zone the NS set belongs to: the domain, or the zone that encloses it. */
  zone: string | null;
  rcode: Rcode;
  ttl: number | null;
  names: string[];
  hosts: HostFact[];
  /** Distinct IPv4 /24 and IPv6 /48 networks of every nameserver address. */
  networks: string[];
}

export interface SoaFacet {
  zone: string | null;
  rcode: Rcode;
  mname: string | null;
  rname: string | null;
  serial: number | null;
  refresh: number | null;
  retry: number | null;
  expire: number | null;
  minimum: number | null;
  ttl: number | null;
}

export interface MxFacet {
  rcode: Rcode;
  ttl: number | null;
  records: Array<{ preference: number; exchange: string }>;
  /** A record "0 ." says the domain accepts no mail (RFC 7505). */
  null_mx: boolean;
  hosts: HostFact[];
}

export interface TxtBase {
  name: string;
  rcode: Rcode;
  /** The records of this kind (selected by their version tag), sorted. */
  records: string[];
  count: number;
}

export interface SpfFacet extends TxtBase {
  /** Bytes of the record when exactly one is published, else null. */
  bytes: number | null;
  /** The parsed record when exactly one is published, else null. */
  parsed: SpfFacts | null;
}

export interface SpfTarget {
  domain: string;
  via: 'include' | 'redirect';
  /** null when the target holds a macro, which only a mail receiver can expand. */
  rcode: Rcode | null;
  spf_count: number | null;
}

export interface SpfExpansionFacet {
  /** DNS-querying terms over the whole evaluation tree (RFC 7208 section 4.6.4); null without one SPF record. */
  lookups: number | null;
  /** include/redirect targets that answered NXDOMAIN or no TXT at all. */
  void_lookups: number | null;
  /** The `all` that ends evaluation: the record's own, else the one reached through redirect=. */
  effective_all: SpfQualifier | null;
  /** false when the walk stopped at its budget before reaching every target. */
  complete: boolean | null;
  targets: SpfTarget[];
}

export interface DmarcReport {
  uri: string;
  /** The mailbox domain of a mailto: URI; null for other schemes. */
  domain: string | null;
  /** The destination lies outside the policy domain's organisational domain (RFC 7489 section 7.1). */
  external: boolean;
  /** For external destinations: whether <policy domain>._report._dmarc.<destination> authorises them. */
  authorized: boolean | null;
}

export interface DmarcFacet extends TxtBase {
  /** The organisational domain (registrable domain) whose _dmarc record applies when the domain has none. */
  org_domain: string;
  /** The name the records were found at: _dmarc.<domain>, else _dmarc.<organisational domain>; null if neither. */
  location: string | null;
  parsed: DmarcFacts | null;
  reports: DmarcReport[];
}

export interface MtaStsFacet extends TxtBase {
  id: string | null;
  errors: string[];
}

export interface TlsRptFacet extends TxtBase {
  rua: string[];
  errors: string[];
}

export interface BimiFacet extends TxtBase {
  location: string | null;
  authority: string | null;
  errors: string[];
}

export interface DkimFacet {
  name: string;
  /** NOERROR at _domainkey.<domain> means selectors exist below it (RFC 8020); NXDOMAIN means none. */
  rcode: Rcode;
}

export interface CaaFacet {
  /** The CAA query's rcode at the domain itself. */
  rcode: Rcode;
  /** The name whose CAA set applies (the domain or the nearest parent up to the registrable domain). */
  found_at: string | null;
  records: CaaRecordFacts[];
  issue: string[];
  issuewild: string[];
  iodef: string[];
}

export interface SvcbRecordFact {
  priority: number;
  mode: 'alias' | 'service';
  target: string;
  alpn: string[];
  no_default_alpn: boolean;
  port: number | null;
  ipv4hint: string[];
  ipv6hint: string[];
  ech: boolean;
  mandatory: string[];
  /** Keys listed in mandatory that the record does not carry (RFC 9460 section 8). */
  mandatory_missing: string[];
  unknown_keys: string[];
  /** Address hints that are not among the A/AAAA records of the host the record points to. */
  hints_unpublished: string[];
  /** For a target other than ".": whether it has an A or AAAA record; null for ".". */
  target_resolves: boolean | null;
}

export interface HttpsRrSet {
  name: string;
  rcode: Rcode | null;
  /** Why the records could not be decoded; null when they could. */
  decode_error: string | null;
  records: SvcbRecordFact[];
}

export interface HttpsRrFacet {
  apex: HttpsRrSet;
  www: HttpsRrSet;
}

export interface RrsigFact {
  type_covered: string;
  algorithm: number;
  key_tag: number;
  signer: string;
  inception: string;
  expiration: string;
}

export interface DnssecFacet {
  ds_rcode: Rcode;
  ds: Array<{ key_tag: number; algorithm: number; digest_type: number }>;
  dnskey_rcode: Rcode;
  dnskey: Array<{ flags: number; protocol: number; algorithm: number }>;
  /** The resolver set AD (validated) on the apex A answer asked with DO. */
  ad: boolean;
  ds_algorithms: number[];
  ds_digest_types: number[];
  dnskey_algorithms: number[];
  rrsigs: RrsigFact[];
  rrsig_earliest_expiration: string | null;
  rrsig_latest_inception: string | null;
}

/** TTLs as the resolver returned them: the time left in its cache, so each is at most the zone's value. */
export interface TtlFacet {
  address_min: number | null;
  address_max: number | null;
  ns: number | null;
  mx: number | null;
  soa: number | null;
}

export interface DnsObservations {
  addresses?: AddressesFacet;
  ns?: NsFacet;
  soa?: SoaFacet;
  mx?: MxFacet;
  spf?: SpfFacet;
  spf_expansion?: SpfExpansionFacet;
  dmarc?: DmarcFacet;
  mta_sts?: MtaStsFacet;
  tls_rpt?: TlsRptFacet;
  bimi?: BimiFacet;
  dkim?: DkimFacet;
  caa?: CaaFacet;
  https_rr?: HttpsRrFacet;
  dnssec?: DnssecFacet;
  ttl?: TtlFacet;
}
