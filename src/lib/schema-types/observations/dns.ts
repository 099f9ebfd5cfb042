// Generated from schemas/observations/dns.json by `npm run types`; edit the schema, not this file.

/**
 * A DNS name, lower-case, without the trailing dot.
 */
export type Name = string;
/**
 * How the lookup ended: the DNS rcode (NOERROR, NXDOMAIN, SERVFAIL, REFUSED, ...), or TIMEOUT for a name the domain points to that got no answer in time.
 */
export type Rcode = string;

/**
 * What the configured recursive resolver says about the domain, by facet. A facet is present when a rule of the run reads it; inside a facet every field is present and an absent fact is null. NXDOMAIN and SERVFAIL are facts (rcode fields); a resolver that does not answer makes the probe time out.
 */
export interface DnsObservations {
  /**
   * A and AAAA of the domain and of www.<domain>.
   */
  addresses?: {
    apex: HostAddresses;
    www: HostAddresses;
  };
  /**
   * The apex NS set as the resolver returns it. Per-nameserver facts (reachability, serials, AA, TCP) are not observable through a recursive resolver.
   */
  ns?: {
    /**
     * The zone the NS set belongs to: the domain, or the zone enclosing it.
     */
    zone: string | null;
    rcode: Rcode;
    /**
     * TTL of the NS set as the resolver returned it.
     */
    ttl: number | null;
    /**
     * Nameserver names, sorted, distinct.
     */
    names: Name[];
    /**
     * Each nameserver name resolved, sorted by name.
     */
    hosts: Host[];
    /**
     * Distinct IPv4 /24 and IPv6 /48 networks of all nameserver addresses, sorted.
     */
    networks: string[];
  };
  /**
   * The SOA of the zone the domain lives in.
   */
  soa?: {
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
  };
  mx?: {
    rcode: Rcode;
    ttl: number | null;
    /**
     * Sorted by preference, then exchange.
     */
    records: {
      preference: number;
      /**
       * '.' for a null MX.
       */
      exchange: string;
    }[];
    /**
     * A '0 .' record says the domain takes no mail (RFC 7505).
     */
    null_mx: boolean;
    /**
     * Each exchanger other than '.' resolved, in preference order.
     */
    hosts: Host[];
  };
  /**
   * SPF records at the domain (TXT starting v=spf1).
   */
  spf?: {
    name: Name;
    rcode: Rcode;
    /**
     * TXT records of this kind (chosen by their version tag), strings joined, sorted.
     */
    records: string[];
    count: number;
    /**
     * Bytes of the record when exactly one is published.
     */
    bytes: number | null;
    /**
     * The record parsed when exactly one is published, else null.
     */
    parsed: SpfParsed | null;
  };
  /**
   * The SPF include/redirect tree, walked through the resolver.
   */
  spf_expansion?: {
    /**
     * DNS-querying terms over the whole include/redirect tree (worst case); null without exactly one SPF record.
     */
    lookups: number | null;
    /**
     * include/redirect targets answering NXDOMAIN or no TXT at all.
     */
    void_lookups: number | null;
    /**
     * The all that ends evaluation: the record's own, else the one reached through redirect=.
     */
    effective_all: '+' | '-' | '~' | '?' | null;
    /**
     * false when the walk stopped at its budget (more than 10 lookups, or 30 targets).
     */
    complete: boolean | null;
    /**
     * Targets in the order the walk reached them (level by level).
     */
    targets: {
      domain: string;
      via: 'include' | 'redirect';
      /**
       * null for a target holding a macro, which only a receiver can expand.
       */
      rcode: Rcode | null;
      spf_count: number | null;
    }[];
  };
  /**
   * DMARC at _dmarc.<domain> (name, rcode) with the organisational-domain fallback (records, count, location).
   */
  dmarc?: {
    name: Name;
    rcode: Rcode;
    /**
     * TXT records of this kind (chosen by their version tag), strings joined, sorted.
     */
    records: string[];
    count: number;
    /**
     * The organisational (registrable) domain.
     */
    org_domain: string;
    /**
     * Where the records were found: _dmarc.<domain>, else _dmarc.<org_domain>; null if at neither.
     */
    location: string | null;
    /**
     * The record parsed when exactly one is found, else null.
     */
    parsed: DmarcParsed | null;
    /**
     * The rua destinations (at most 5), in the order written.
     */
    reports: {
      uri: string;
      /**
       * Mailbox domain of a mailto: URI.
       */
      domain: string | null;
      /**
       * The destination lies outside the policy domain's organisational domain.
       */
      external: boolean;
      /**
       * External destinations: <policy domain>._report._dmarc.<destination> holds a v=DMARC1 record; null otherwise.
       */
      authorized: boolean | null;
    }[];
  };
  /**
   * MTA-STS TXT at _mta-sts.<domain>; id and errors parsed when exactly one record exists.
   */
  mta_sts?: {
    name: Name;
    rcode: Rcode;
    /**
     * TXT records of this kind (chosen by their version tag), strings joined, sorted.
     */
    records: string[];
    count: number;
    id: string | null;
    errors: string[];
  };
  /**
   * SMTP TLS reporting TXT at _smtp._tls.<domain>.
   */
  tls_rpt?: {
    name: Name;
    rcode: Rcode;
    /**
     * TXT records of this kind (chosen by their version tag), strings joined, sorted.
     */
    records: string[];
    count: number;
    rua: string[];
    errors: string[];
  };
  /**
   * BIMI TXT at default._bimi.<domain>.
   */
  bimi?: {
    name: Name;
    rcode: Rcode;
    /**
     * TXT records of this kind (chosen by their version tag), strings joined, sorted.
     */
    records: string[];
    count: number;
    /**
     * l= (logo URL).
     */
    location: string | null;
    /**
     * a= (mark certificate URL).
     */
    authority: string | null;
    errors: string[];
  };
  /**
   * The _domainkey node: NOERROR when selectors exist below it (RFC 8020), NXDOMAIN when none do.
   */
  dkim?: {
    name: Name;
    rcode: Rcode;
  };
  /**
   * The relevant CAA record set (RFC 8659 section 3).
   */
  caa?: {
    rcode: Rcode;
    /**
     * The name whose CAA set applies: the domain or its nearest parent up to the registrable domain.
     */
    found_at: string | null;
    /**
     * Sorted by tag, then value.
     */
    records: CaaRecord[];
    issue: string[];
    issuewild: string[];
    iodef: string[];
  };
  /**
   * HTTPS (SVCB type 65) records at the domain and at www.
   */
  https_rr?: {
    apex: HttpsSet;
    www: HttpsSet;
  };
  /**
   * DNSSEC as a recursive resolver shows it.
   */
  dnssec?: {
    ds_rcode: Rcode;
    /**
     * DS records at the parent, sorted.
     */
    ds: {
      key_tag: number;
      algorithm: number;
      digest_type: number;
    }[];
    dnskey_rcode: Rcode;
    /**
     * DNSKEY records at the apex, sorted.
     */
    dnskey: {
      flags: number;
      protocol: number;
      algorithm: number;
    }[];
    /**
     * The resolver set AD (validated) on the apex A answer asked with DO.
     */
    ad: boolean;
    /**
     * Distinct, sorted.
     */
    ds_algorithms: number[];
    /**
     * Distinct, sorted.
     */
    ds_digest_types: number[];
    /**
     * Distinct, sorted.
     */
    dnskey_algorithms: number[];
    /**
     * Signatures returned with the DS, DNSKEY and apex A answers.
     */
    rrsigs: {
      type_covered: string;
      algorithm: number;
      key_tag: number;
      signer: string;
      inception: string;
      expiration: string;
    }[];
    rrsig_earliest_expiration: string | null;
    rrsig_latest_inception: string | null;
  };
  /**
   * TTLs as the resolver returned them: time left in its cache, so each is at most the zone's value.
   */
  ttl?: {
    address_min: number | null;
    address_max: number | null;
    ns: number | null;
    mx: number | null;
    soa: number | null;
  };
}
export interface HostAddresses {
  name: Name;
  rcode: Rcode;
  /**
   * CNAME targets in the order the chain visits them; empty when the name is no alias.
   */
  cname_chain: Name[];
  /**
   * A records, sorted by address.
   */
  a: Address[];
  /**
   * AAAA records, sorted by address.
   */
  aaaa: Address[];
}
export interface Address {
  /**
   * IPv4 or IPv6 address in canonical form.
   */
  address: string;
  /**
   * TTL as the resolver returned it: the time left in its cache, at most the zone's TTL.
   */
  ttl: number;
  /**
   * The scanner's address policy accepts the address (public unicast only unless configuration widens it).
   */
  policy_allowed: boolean;
}
/**
 * A host the domain points to (nameserver, mail exchanger), resolved through the resolver without glue.
 */
export interface Host {
  name: Name;
  rcode: Rcode;
  /**
   * The name is an alias (CNAME).
   */
  is_cname: boolean;
  /**
   * Sorted.
   */
  ipv4: string[];
  /**
   * Sorted.
   */
  ipv6: string[];
}
export interface SpfParsed {
  /**
   * Mechanisms in the order written.
   */
  terms: SpfTerm[];
  /**
   * Qualifier of the record's all mechanism; null when it has none.
   */
  all: '+' | '-' | '~' | '?' | null;
  redirect: string | null;
  exp: string | null;
  /**
   * include: targets, in order.
   */
  includes: string[];
  /**
   * Terms of this record that cost a DNS lookup (include, a, mx, ptr, exists, and redirect when it applies).
   */
  lookup_terms: number;
  ptr_used: boolean;
  unknown_mechanisms: string[];
  unknown_modifiers: string[];
  /**
   * Terms that do not parse, as messages.
   */
  errors: string[];
}
export interface SpfTerm {
  qualifier: '+' | '-' | '~' | '?';
  mechanism: 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';
  /**
   * The argument after ':' (with any cidr suffix), or null.
   */
  value: string | null;
}
export interface DmarcParsed {
  /**
   * Policy as written, lower-cased; null when absent.
   */
  p: string | null;
  sp: string | null;
  np: string | null;
  pct: number | null;
  rua: string[];
  ruf: string[];
  adkim: string | null;
  aspf: string | null;
  unknown_tags: string[];
  errors: string[];
}
export interface CaaRecord {
  flags: number;
  /**
   * The issuer-critical flag (128) is set.
   */
  critical: boolean;
  /**
   * Property tag, lower-cased.
   */
  tag: string;
  value: string;
  /**
   * issue/issuewild: the CA domain; null when the value forbids issuance, and for other tags.
   */
  issuer: string | null;
  parameters: {
    [k: string]: string | undefined;
  };
  /**
   * Why an issue, issuewild or iodef value does not parse; null when it does.
   */
  parse_error: string | null;
}
export interface HttpsSet {
  name: Name;
  /**
   * null when the answer could not be decoded.
   */
  rcode: Rcode | null;
  decode_error: string | null;
  /**
   * Sorted by priority, then target.
   */
  records: SvcbRecord[];
}
export interface SvcbRecord {
  priority: number;
  mode: 'alias' | 'service';
  /**
   * '.' for the owner name itself.
   */
  target: string;
  alpn: string[];
  no_default_alpn: boolean;
  port: number | null;
  ipv4hint: string[];
  ipv6hint: string[];
  /**
   * An ECH configuration is published.
   */
  ech: boolean;
  mandatory: string[];
  /**
   * Keys listed in mandatory that the record does not carry.
   */
  mandatory_missing: string[];
  /**
   * Parameters the decoder does not know, as key<N>.
   */
  unknown_keys: string[];
  /**
   * Address hints that are not A/AAAA records of the host the record points to.
   */
  hints_unpublished: string[];
  /**
   * For a target other than '.': it has an A or AAAA record; null for '.'.
   */
  target_resolves: boolean | null;
}
