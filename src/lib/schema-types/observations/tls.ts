// Generated from schemas/observations/tls.json by `npm run types`; edit the schema, not this file.

export type Protocol = 'SSLv3' | 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' | null;
export type KeyExchange = 'ecdhe' | 'dhe' | 'rsa' | 'ecdh' | 'dh' | 'psk' | 'other' | null;
export type Hash = 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512' | 'intrinsic' | null;

/**
 * What TLS handshakes with the domain (SNI = the domain, port https) showed. Each facet is collected only when a rule needs it. A handshake the server declined is a fact (false); one that could not complete for another reason (timeout, connection failure) leaves the fact null.
 */
export interface TlsObservations {
  /**
   * The default handshake of a modern client (TLS 1.2 to 1.3, Node's default suites, ALPN h2 and http/1.1).
   */
  negotiated?: {
    /**
     * The server answered at the TLS level (completed or declined the handshake).
     */
    reachable: boolean;
    /**
     * Why the handshake did not complete: a network-layer or TLS error code.
     */
    error: string | null;
    /**
     * The address the handshake was made with.
     */
    address: string | null;
    protocol: Protocol;
    /**
     * OpenSSL name of the negotiated suite.
     */
    cipher: string | null;
    /**
     * IANA name of the negotiated suite.
     */
    cipher_iana: string | null;
    key_exchange: KeyExchange;
    /**
     * Group or curve of the ephemeral key (e.g. X25519, prime256v1); null without one.
     */
    ephemeral_group: string | null;
    /**
     * Size of the ephemeral key as OpenSSL reports it (DH: prime bits).
     */
    ephemeral_bits: number | null;
    /**
     * The key exchange used ephemeral keys.
     */
    forward_secret: boolean | null;
    /**
     * The suite is an AEAD construction (GCM, CCM, ChaCha20-Poly1305).
     */
    aead: boolean | null;
    /**
     * Protocol chosen by ALPN; null when the server chose none.
     */
    alpn: string | null;
  };
  /**
   * Protocol versions accepted, one handshake per version (TLS 1.0 and 1.1 offered at OpenSSL security level 0; SSL 3.0 with a hand-built ClientHello). A refusal is recorded only when some version was accepted.
   */
  versions?: {
    /**
     * The server answered at the TLS level, so its versions could be tested.
     */
    reachable: boolean;
    error: string | null;
    /**
     * A handshake offering only SSL 3.0 was accepted; null when that could not be tested.
     */
    ssl3: boolean | null;
    /**
     * A handshake offering only TLS 1.0 was accepted; null when that could not be tested.
     */
    tls1_0: boolean | null;
    /**
     * A handshake offering only TLS 1.1 was accepted; null when that could not be tested.
     */
    tls1_1: boolean | null;
    /**
     * A handshake offering only TLS 1.2 was accepted; null when that could not be tested.
     */
    tls1_2: boolean | null;
    /**
     * A handshake offering only TLS 1.3 was accepted; null when that could not be tested.
     */
    tls1_3: boolean | null;
  };
  /**
   * Suite classes the server accepts from a client offering TLS 1.0 to 1.2 and only suites of that class. Classes the local OpenSSL no longer implements (3DES, RC4, EXPORT, NULL, anonymous) are tested with a hand-built ClientHello.
   */
  ciphers?: {
    /**
     * The server answered at the TLS level, so its suites could be tested.
     */
    reachable: boolean;
    error: string | null;
    /**
     * The server accepts an AEAD suite (AES-GCM, ChaCha20-Poly1305, AES-CCM, ARIA-GCM) for TLS 1.2 and below; null when that could not be tested.
     */
    aead: boolean | null;
    /**
     * A CBC-mode suite is accepted.
     */
    cbc: boolean | null;
    /**
     * A suite with static RSA key exchange (no forward secrecy) is accepted.
     */
    rsa_key_exchange: boolean | null;
    ecdhe: boolean | null;
    /**
     * The server accepts a finite-field Diffie-Hellman (DHE) suite; null when that could not be tested.
     */
    dhe: boolean | null;
    /**
     * Prime size of the DHE group when only DHE suites are offered; null when DHE is not accepted.
     */
    dhe_bits: number | null;
    /**
     * The server accepts a 3DES suite (64-bit blocks, Sweet32); null when that could not be tested.
     */
    triple_des: boolean | null;
    /**
     * The server accepts an RC4 suite (prohibited by RFC 7465); null when that could not be tested.
     */
    rc4: boolean | null;
    /**
     * The server accepts an export-grade suite (40- or 56-bit keys); null when that could not be tested.
     */
    export: boolean | null;
    /**
     * The server accepts a suite without encryption (NULL cipher); null when that could not be tested.
     */
    null_cipher: boolean | null;
    /**
     * The server accepts an anonymous (unauthenticated) suite such as ADH or AECDH; null when that could not be tested.
     */
    anonymous: boolean | null;
    /**
     * A TLS 1.2 handshake completes when the client offers only SHA-1 signature algorithms; null without TLS 1.2.
     */
    sha1_signatures: boolean | null;
    /**
     * The server picks the same suite whatever the client's order (null when fewer than two offered suites are accepted).
     */
    server_preference: boolean | null;
    /**
     * TLS_AES_128_CCM_8_SHA256 is accepted under TLS 1.3; null without TLS 1.3.
     */
    tls13_ccm8: boolean | null;
  };
  /**
   * The certificate the default handshake presented and how its chain verified (trust store: system roots plus configured extra anchors; no AIA fetching).
   */
  certificate?: {
    /**
     * The server answered at the TLS level, so its certificate chain could be read.
     */
    reachable: boolean;
    error: string | null;
    /**
     * The chain verified to a trust anchor (signatures, dates, constraints; the host name is not part of this).
     */
    chain_verified: boolean | null;
    /**
     * OpenSSL or Node code of the first verification failure, name mismatch included.
     */
    authorization_error: string | null;
    /**
     * The certificates the server sent lead from the leaf to a trust anchor.
     */
    chain_reaches_anchor: boolean | null;
    /**
     * That anchor is one of the public (Mozilla) roots bundled with Node; null when no anchor was reached.
     */
    anchor_public: boolean | null;
    /**
     * A dNSName of the leaf matches the domain (RFC 9525; the subject CN is not used).
     */
    hostname_match: boolean | null;
    leaf: Certificate | null;
    /**
     * The leaf and its issuers as the client linked them, leaf first; anchors taken from the trust store are marked.
     */
    chain: ChainEntry[];
  };
  /**
   * Whether the server staples an OCSP response when asked (status_request); asked twice when the first handshake had none, as servers fetch staples lazily.
   */
  ocsp?: {
    reachable: boolean;
    error: string | null;
    /**
     * The server stapled an OCSP response in the handshake (RFC 6066 section 8); null when the handshake did not complete.
     */
    stapled: boolean | null;
    response_bytes: number | null;
  };
  /**
   * ServerHello extensions and compression seen in answer to a mainstream hand-built TLS 1.2 ClientHello (offering DEFLATE and null compression). Null when the server did not answer it with a ServerHello.
   */
  features?: {
    reachable: boolean;
    error: string | null;
    hello_version: Protocol;
    /**
     * renegotiation_info (RFC 5746) in the ServerHello.
     */
    secure_renegotiation: boolean | null;
    /**
     * extended_master_secret (RFC 7627) in the ServerHello.
     */
    extended_master_secret: boolean | null;
    /**
     * Compression method chosen.
     */
    compression: 'null' | 'deflate' | 'other' | null;
  };
  /**
   * The certificate presented for www.<domain> (SNI www), when that name resolves.
   */
  www?: {
    /**
     * www.<domain> has an allowed address; null when the lookup failed.
     */
    resolves: boolean | null;
    reachable: boolean;
    error: string | null;
    /**
     * The certificate served for www.<domain> chains to a trusted root; null when there was no handshake.
     */
    chain_verified: boolean | null;
    /**
     * The certificate served for www.<domain> names www.<domain> (RFC 6125); null when there was no handshake.
     */
    hostname_match: boolean | null;
    sha256: string | null;
  };
}
export interface Certificate {
  subject: string;
  /**
   * The subject's common name; null when absent (names are in subjectAltName).
   */
  subject_cn: string | null;
  issuer: string;
  issuer_cn: string | null;
  /**
   * Upper-case hex.
   */
  serial: string;
  /**
   * Start of the validity period (RFC 5280 section 4.1.2.5).
   */
  not_before: string;
  /**
   * End of the validity period (RFC 5280 section 4.1.2.5).
   */
  not_after: string;
  /**
   * dNSName entries, lower-cased, sorted.
   */
  sans: string[];
  /**
   * Node's key type: rsa, rsa-pss, ec, ed25519, ed448, dsa.
   */
  key_type: string | null;
  /**
   * RSA modulus bits or the curve's size.
   */
  key_bits: number | null;
  /**
   * OpenSSL curve name for EC keys (prime256v1, secp384r1, secp521r1).
   */
  key_curve: string | null;
  /**
   * Name of the issuer's signature algorithm, or its OID when unknown.
   */
  signature_algorithm: string;
  signature_hash: Hash;
  /**
   * SHA-256 fingerprint of the certificate's DER bytes, lower-case hex.
   */
  sha256: string;
  /**
   * The certificate's issuer equals its subject and its own key verifies its signature.
   */
  self_signed: boolean;
  /**
   * The basic constraints extension marks the certificate as a CA (RFC 5280 section 4.2.1.9).
   */
  is_ca: boolean;
  /**
   * TLS Feature extension with status_request (RFC 7633).
   */
  must_staple: boolean;
  /**
   * Distinct CT log ids (base64) of embedded SCTs, sorted.
   */
  sct_log_ids: string[];
  /**
   * OCSP responder URLs from the Authority Information Access extension (RFC 5280 section 4.2.2.1).
   */
  ocsp_urls: string[];
  /**
   * CRL distribution point URLs of the certificate (RFC 5280 section 4.2.1.13).
   */
  crl_urls: string[];
  /**
   * EKU OIDs, sorted; null when the extension is absent.
   */
  extended_key_usage: string[] | null;
}
export interface ChainEntry {
  subject: string;
  issuer: string;
  sha256: string;
  not_after: string;
  signature_algorithm: string;
  signature_hash: Hash;
  key_type: string | null;
  key_bits: number | null;
  self_signed: boolean;
  is_ca: boolean;
  /**
   * This certificate is in the trust store (the server need not have sent it).
   */
  trust_anchor: boolean;
}
