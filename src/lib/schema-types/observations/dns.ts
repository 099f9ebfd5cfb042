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
     * Each nameserver name resolved, sorted by name; null when no rule of the run reads the nameservers' addresses (a Quick Scan), which are then not looked up.
     */
    hosts: Host[] | null;
    /**
     * Distinct IPv4 /24 and IPv6 /48 networks of all nameserver addresses, sorted; null when `hosts` is.
     */
    networks: string[] | null;
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
    /**
     * The SOA REFRESH field in seconds: how often secondaries check the primary for changes.
     */
    refresh: number | null;
    /**
     * The SOA RETRY field in seconds: how long a secondary waits before retrying a failed refresh.
     */
    retry: number | null;
    /**
     * The SOA EXPIRE field in seconds: how long secondaries keep serving the zone without reaching the primary (RFC 1035 section 3.3.13).
     */
    expire: number | null;
    /**
     * The SOA MINIMUM field in seconds, the TTL of negative answers (RFC 2308 section 4).
     */
    minimum: number | null;
    ttl: number | null;
  };
  /**
   * The MX records of the domain (RFC 5321 section 5.1), including the null MX of RFC 7505.
   */
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
    /**
     * Number of TXT records at the domain that start with v=spf1 (RFC 7208 section 4.5: more than one is a permerror).
     */
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
   * The SPF evaluation tree walked through the resolver as a receiver could walk it (RFC 7208 section 4.6.4): every DNS-querying term of the record and of the records its include and redirect targets hold, each lookup asked until the 10-lookup budget is spent.
   */
  spf_expansion?: {
    /**
     * DNS-querying terms (include, a, mx, ptr, exists, and redirect when it applies) over the whole tree reached; null without exactly one SPF record. Past 10 the walk stops, so a count above 10 is a lower bound.
     */
    lookups: number | null;
    /**
     * The all that ends evaluation: the record's own, else the one of the record its redirect= chain reaches (null when none does).
     */
    effective_all: '+' | '-' | '~' | '?' | null;
    /**
     * false when include or redirect targets were left unread because the 10-lookup budget was spent.
     */
    complete: boolean | null;
    /**
     * Every name a DNS-querying term made the walk look up, in walk order (level by level, terms in record order), up to the 10-lookup budget. ptr terms need the sender's address and are not looked up.
     */
    targets: {
      /**
       * The name looked up: the term's domain-spec, or the domain of the record holding the term when it names none.
       */
      domain: string;
      /**
       * The term that looks the name up.
       */
      via: 'include' | 'redirect' | 'a' | 'mx' | 'exists';
      /**
       * The domain whose SPF record holds the term.
       */
      from: string;
      /**
       * null for a name holding a macro, which only a receiver can expand.
       */
      rcode: Rcode | null;
      /**
       * Answer records of the type the receiver asks: TXT for include and redirect, MX for mx (the exchanger names, at most 10 allowed), A for exists, A and AAAA together for a (a name with no address of either family is void for every sender); null when not looked up.
       */
      answers: number | null;
      /**
       * include and redirect: SPF records at the name (exactly 1 needed); null for other terms and unread names.
       */
      spf_count: number | null;
      /**
       * include and redirect with exactly one SPF record: that record's grammar errors, as in spf.parsed.errors (a receiver returns permerror for them too); null otherwise.
       */
      errors: string[] | null;
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
    /**
     * Number of TXT records at _dmarc.<domain> that start with v=DMARC1 (RFC 7489 section 6.6.3: more than one means no policy).
     */
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
    /**
     * Number of TXT records at _mta-sts.<domain> that start with v=STSv1 (RFC 8461 section 3.1).
     */
    count: number;
    id: string | null;
    /**
     * What breaks the record's grammar, each message naming the production; [] without exactly one record.
     */
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
    /**
     * Number of TXT records at _smtp._tls.<domain> that start with v=TLSRPTv1 (RFC 8460 section 3).
     */
    count: number;
    rua: string[];
    /**
     * What breaks the record's grammar, each message naming the production; [] without exactly one record.
     */
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
    /**
     * Number of TXT records at default._bimi.<domain> that start with v=BIMI1.
     */
    count: number;
    /**
     * l= (logo URL).
     */
    location: string | null;
    /**
     * a= (mark certificate URL).
     */
    authority: string | null;
    /**
     * What breaks the record's grammar, each message naming the production; [] without exactly one record.
     */
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
    /**
     * The earliest expiration time among the RRSIG records seen for the zone's apex; null when no signature was seen.
     */
    rrsig_earliest_expiration: string | null;
    /**
     * The latest inception time among the RRSIG records seen for the zone's apex; null when no signature was seen.
     */
    rrsig_latest_inception: string | null;
  };
  /**
   * TTLs as the resolver returned them: time left in its cache, so each is at most the zone's value.
   */
  ttl?: {
    address_min: number | null;
    /**
     * The largest TTL, in seconds, among the domain's A and AAAA records; null when it has none.
     */
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
  /**
   * The redirect= domain-spec as written; null when absent.
   */
  redirect: string | null;
  /**
   * The exp= domain-spec as written; null when absent.
   */
  exp: string | null;
  /**
   * include: targets as written, in order.
   */
  includes: string[];
  /**
   * Terms of this record that cost a DNS lookup (include, a, mx, ptr, exists, and redirect when it applies).
   */
  lookup_terms: number;
  /**
   * Mechanism names RFC 7208 does not define (each also an error: receivers return permerror).
   */
  unknown_mechanisms: string[];
  /**
   * Modifier names other than redirect and exp (ignored by receivers, section 6).
   */
  unknown_modifiers: string[];
  /**
   * Terms that break the grammar of RFC 7208, each message naming the production it breaks ("... breaks domain-spec: ..."). Receivers return permerror for any of them (section 4.6).
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
  /**
   * include, exists, a, mx, ptr: the domain-spec as written (macros unexpanded); null when the term names none (a, mx and ptr then mean the record's own domain) and for all, ip4 and ip6.
   */
  domain_spec: string | null;
}
/**
 * The record judged against both grammars in use: RFC 9989 sections 4.7-4.8 (the current standard) and RFC 7489 sections 6.3-6.4 with RFC 9091 (what receivers built before RFC 9989 apply).
 */
export interface DmarcParsed {
  /**
   * Policy as written, lower-cased; null when absent.
   */
  p: string | null;
  /**
   * The policy receivers apply to the domain's own mail (RFC 7489 section 6.6.3 step 6, kept by RFC 9989's policy discovery): p when the record has a valid p right after v and no invalid sp or np; none when it has not but rua holds a syntactically valid URI; null when receivers apply no DMARC processing (also for a tag list that cannot be read). Other bad tag values are discarded for their defaults (RFC 7489 section 6.3) and leave p in force.
   */
  effective_policy: 'none' | 'quarantine' | 'reject' | null;
  /**
   * Subdomain policy as written, lower-cased; null when absent.
   */
  sp: string | null;
  /**
   * Policy for non-existent subdomains (RFC 9989, RFC 9091) as written, lower-cased; null when absent.
   */
  np: string | null;
  /**
   * Testing mode (RFC 9989 t=), lower-cased: y asks receivers to apply one level less than the policy; null when absent.
   */
  t: string | null;
  /**
   * RFC 7489's sampling percentage when it is a valid 0-100 integer; null when absent or invalid. RFC 9989 removed the tag, so its receivers apply the policy to all mail.
   */
  pct: number | null;
  /**
   * Aggregate report URIs as written (any obsolete "!size" suffix kept).
   */
  rua: string[];
  /**
   * Failure report URIs as written.
   */
  ruf: string[];
  /**
   * DKIM alignment mode as written, lower-cased.
   */
  adkim: string | null;
  /**
   * SPF alignment mode as written, lower-cased.
   */
  aspf: string | null;
  /**
   * Tags neither RFC 9989 nor RFC 7489 defines (receivers ignore them).
   */
  unknown_tags: string[];
  /**
   * What breaks the grammar of RFC 9989 section 4.8, each message naming the production ("... breaks dmarc-request: ..."). A missing p is no error there (it reads as p=none).
   */
  errors: string[];
  /**
   * What breaks the grammar of RFC 7489 sections 6.3-6.4 (with RFC 9091's np): also p missing or not right after v, and invalid pct, ri, rf or !size values, which receivers built on RFC 7489 refuse.
   */
  errors_rfc7489: string[];
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
   * issue, issuewild, issuemail, issuevmc: the CA domain, lower-cased; null when the value forbids issuance, and for other tags.
   */
  issuer: string | null;
  /**
   * The parameters of an issue-value (RFC 8659 section 4.2), tags lower-cased.
   */
  parameters: {
    [k: string]: string | undefined;
  };
  /**
   * What breaks RFC 8659: a tag of other characters than letters and digits or a reserved flag bit set (section 4.1), an issue-value that does not parse (section 4.2), an iodef that is not a mailto:, http: or https: URI (section 4.4); null when the property is well formed.
   */
  parse_error: string | null;
}
export interface HttpsSet {
  name: Name;
  /**
   * null when the answer could not be decoded.
   */
  rcode: Rcode | null;
  /**
   * Why the HTTPS record's wire format could not be decoded (RFC 9460 section 2.2); null when it decoded or none was published.
   */
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
