// Generated from schemas/observations/reachability.json by `npm run types`; edit the schema, not this file.

/**
 * The distinct leaf certificate fingerprints the probed addresses presented, sorted.
 */
export type LeafSha256S = string[];

/**
 * Every address a name publishes, each probed on its own: a TLS handshake on the HTTPS port, GET / over HTTPS and GET / over plain HTTP, all pinned to that address. At most 4 addresses per family are probed (the lowest in sort order, so two scans probe the same ones). A failure is a fact: its network error code, with the other facts of that exchange null.
 */
export interface ReachabilityObservations {
  apex?: Host;
  www?: Host;
  apex_tls?: Handshakes;
}
export interface Host {
  /**
   * The name probed, lower-case, no trailing dot.
   */
  host: string;
  /**
   * The first failure of the A and AAAA lookups (dns_nxdomain, dns_servfail, dns_refused, dns_error, ...); null when both answered NOERROR, with or without addresses.
   */
  dns_error: string | null;
  /**
   * A records the name resolves to (after its CNAME chain), all of them, probed or not.
   */
  published_v4: number;
  /**
   * AAAA records the name resolves to (after its CNAME chain), all of them, probed or not.
   */
  published_v6: number;
  /**
   * The published addresses, IPv4 first, each family in byte order.
   */
  addresses: Address[];
  leaf_sha256s: LeafSha256S;
  /**
   * The distinct statuses the probed addresses answered to GET / over HTTPS, ascending.
   */
  https_statuses: number[];
  /**
   * The distinct SHA-256 digests of the bodies answered to GET / over HTTPS, sorted.
   */
  body_sha256s: string[];
}
export interface Address {
  /**
   * The address in its canonical spelling (RFC 5952 for IPv6).
   */
  address: string;
  family: 4 | 6;
  /**
   * The address was connected to.
   */
  probed: boolean;
  /**
   * Why the address was not connected to: the service's address policy refuses it, or more than 4 addresses of its family are published.
   */
  skipped: 'policy_refused' | 'over_limit' | null;
  tls: Tls | null;
  https: Https | null;
  http: Http | null;
}
/**
 * A TLS handshake with SNI = the host, ALPN h2 and http/1.1, on the HTTPS port of this address. The certificate does not stop the handshake: whether it validated is a fact.
 */
export interface Tls {
  /**
   * Why the handshake did not complete (connect_refused, timeout, tls_error, ...); null when it completed.
   */
  error: string | null;
  /**
   * Negotiated TLS version, e.g. TLSv1.3.
   */
  protocol: string | null;
  /**
   * Negotiated ALPN protocol, null when none.
   */
  alpn: string | null;
  /**
   * The chain validated against the trust store and the certificate names the host.
   */
  certificate_valid: boolean | null;
  /**
   * Why it did not validate (e.g. CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID).
   */
  authorization_error: string | null;
  /**
   * SHA-256 of the leaf certificate's DER, lower-case hex (as tls.certificate.leaf.sha256).
   */
  leaf_sha256: string | null;
}
/**
 * GET https://<host>/ on this address, redirects not followed, certificate validated, body read up to 256 KiB.
 */
export interface Https {
  status: number | null;
  /**
   * Why no response came (connect_refused, timeout, tls_error, ...).
   */
  error: string | null;
  /**
   * The Location header as sent; null when absent or when its field lines name different targets (RFC 9110 section 10.2.2: one URI-reference).
   */
  location: string | null;
  /**
   * SHA-256 of the body bytes read, lower-case hex.
   */
  body_sha256: string | null;
  /**
   * Body bytes read (at most 262144).
   */
  body_bytes: number | null;
  /**
   * The body was longer than what was read; body_sha256 covers the bytes read.
   */
  truncated: boolean | null;
}
/**
 * GET http://<host>/ on this address, redirects not followed.
 */
export interface Http {
  status: number | null;
  /**
   * Why no response came (connect_refused when nothing listens, timeout, ...).
   */
  error: string | null;
  /**
   * The Location header as sent; null when absent or when its field lines name different targets (RFC 9110 section 10.2.2: one URI-reference).
   */
  location: string | null;
}
export interface Handshakes {
  /**
   * The name probed, lower-case, no trailing dot.
   */
  host: string;
  /**
   * The first failure of the A and AAAA lookups (dns_nxdomain, dns_servfail, dns_refused, dns_error, ...); null when both answered NOERROR, with or without addresses.
   */
  dns_error: string | null;
  /**
   * A records the name resolves to (after its CNAME chain), all of them, probed or not.
   */
  published_v4: number;
  /**
   * AAAA records the name resolves to (after its CNAME chain), all of them, probed or not.
   */
  published_v6: number;
  /**
   * The published addresses, IPv4 first, each family in byte order.
   */
  addresses: HandshakeAddress[];
  leaf_sha256s: LeafSha256S;
}
export interface HandshakeAddress {
  /**
   * The address in its canonical spelling (RFC 5952 for IPv6).
   */
  address: string;
  family: 4 | 6;
  /**
   * The address was connected to.
   */
  probed: boolean;
  /**
   * Why the address was not connected to: the service's address policy refuses it, or more than 4 addresses of its family are published.
   */
  skipped: 'policy_refused' | 'over_limit' | null;
  tls: Tls | null;
}
