// The contract of the guarded network layer. Probes receive a `Net` and never open a socket any other way:
// every name is resolved once, every address is checked against the address policy, and every connection is
// pinned to the address that was checked.
import type { TLSSocket, ConnectionOptions } from 'node:tls';
import type { Socket } from 'node:net';

/** Why the network layer refused or failed an operation. Probes turn these into facts, never into throws. */
export type NetErrorCode =
  | 'policy_refused' // the address (or a redirect hop's address) is not allowed
  | 'dns_nxdomain'
  | 'dns_nodata'
  | 'dns_servfail'
  | 'dns_refused'
  | 'dns_timeout'
  | 'dns_error'
  | 'connect_refused'
  | 'connect_error'
  | 'timeout'
  | 'tls_error'
  | 'headers_too_large'
  | 'too_many_redirects'
  | 'bad_redirect'
  | 'protocol_error'
  | 'bad_url' // the URL given to request() is not an absolute http: or https: URL
  | 'aborted';

export class NetError extends Error {
  override name = 'NetError';
  constructor(
    readonly code: NetErrorCode,
    message: string,
    /** Extra detail, e.g. the refused address or the TLS error code. */
    readonly detail?: string,
    /** For a request that failed after redirects: the hops that were answered before the failure. */
    readonly chain?: HttpHop[],
  ) {
    super(message);
  }
}

export type DnsRecordType =
  'A' | 'AAAA' | 'CNAME' | 'MX' | 'NS' | 'SOA' | 'TXT' | 'CAA' | 'HTTPS' | 'SVCB' | 'DS' | 'DNSKEY' | 'PTR';

/** One resource record, with its data decoded to plain JSON (see each type's shape in src/net/dns). */
export interface DnsRecord {
  name: string;
  type: string;
  ttl: number;
  data: unknown;
}

export interface DnsResponse {
  /** The response code's name (NOERROR, NXDOMAIN, SERVFAIL, REFUSED, ...), or RCODE<n> for one without a name. */
  rcode: string;
  /** AD: the resolver validated the answer with DNSSEC. AA: authoritative. TC: truncated over UDP. */
  flags: { ad: boolean; aa: boolean; tc: boolean };
  answers: DnsRecord[];
  authorities: DnsRecord[];
  /** The server that answered, host:port. */
  server: string;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface HttpRequestOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'OPTIONS';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Follow redirects (each hop resolved and policy-checked anew). Default false. */
  followRedirects?: boolean;
  /** Cap on body bytes for this request; never above the configured limit. */
  maxBodyBytes?: number;
  /** Ask for compressed content and decode it; the body bytes are then the decoded ones (capped). */
  decompress?: boolean;
  /**
   * Send it even when the scan has asked the same before, and share its answer with no one: for answers measured
   * by repeating the request (timing samples). Other GET requests asked twice in a scan are sent once.
   */
  fresh?: boolean;
  /** Pin this request to one of the host's addresses (per-address reachability); must be policy-allowed. */
  address?: ResolvedAddress;
  signal?: AbortSignal;
}

/** One hop of a request, as seen on the wire. */
export interface HttpHop {
  url: string;
  status: number;
  /** Location header of a redirect, as sent (not resolved). */
  location: string | null;
  /** The pinned address that answered this hop. */
  address: string;
}

export interface HttpExchange {
  /** The URL that produced the final response. */
  url: string;
  status: number;
  /** Header names lower-cased; repeated field lines joined with ", " (RFC 9110 section 5.3), set-cookie left out. */
  headers: Record<string, string>;
  /**
   * Every field line of the final response, by lower-cased name, in the order received. The joined value of
   * `headers` loses where one line ends: Set-Cookie (RFC 6265bis section 3) and Strict-Transport-Security (RFC 6797
   * section 8.1, only the first line counts) must be read line by line.
   */
  fieldLines: Record<string, string[]>;
  /** Raw header bytes of the final response, approximately, for size facts. */
  headerBytes: number;
  body: Buffer;
  /** True when the body was cut at the byte limit. */
  truncated: boolean;
  /** Content-Encoding the server applied, if any (body is decoded when `decompress` was asked). */
  contentEncoding: string | null;
  /** Bytes received on the wire for the body (before decoding), capped. */
  wireBytes: number;
  /** The protocol of the final response: '2' when its connection's ALPN chose h2. */
  httpVersion: '1.1' | '2';
  /** Every hop, the first request included; length - 1 redirects were followed. */
  chain: HttpHop[];
  timings: { ttfbMs: number; totalMs: number };
  address: string;
}

export interface TlsConnectOptions extends Pick<
  ConnectionOptions,
  'minVersion' | 'maxVersion' | 'ciphers' | 'ALPNProtocols' | 'sigalgs' | 'ecdhCurve'
> {
  /** Ask for a stapled OCSP response (a TLSSocket option that tls.connect passes through; @types/node 20 omits it there). */
  requestOCSP?: boolean;
  port?: number;
  /** SNI; defaults to the host. Pass `false` to send none. */
  servername?: string | false;
  signal?: AbortSignal;
  address?: ResolvedAddress;
  /**
   * Check the server's chain and name against the trust store (the default). A handshake that only asks what the
   * server accepts (a version, a cipher) passes false: it is made with an empty trust store, whose context costs
   * nothing to build, and its connection says `authorized` false with the error NOT_VERIFIED.
   */
  verify?: boolean;
}

export interface TlsConnection {
  socket: TLSSocket;
  address: string;
  /**
   * Whether the chain validated against the trust store (system roots plus DVS_EXTRA_CA) and the name; always false
   * for a handshake made with `verify: false`.
   */
  authorized: boolean;
  authorizationError: string | null;
  /** The stapled OCSP response, when requestOCSP was set and the server sent one. */
  ocspResponse: Buffer | null;
  handshakeMs: number;
}

/**
 * What the TLS handshake of one of the scan's HTTPS connections showed (connection-pools.ts): everything a probe
 * reads of a handshake, so that describing one costs no connection of its own.
 */
export interface TlsHandshake {
  address: string;
  /** The negotiated version (`TLSv1.3`), and the protocol ALPN chose, if any. */
  protocol: string | null;
  alpn: string | null;
  /** The cipher suite by OpenSSL's name and by its IANA name. */
  cipher: { name: string; standardName: string };
  /** The key exchange's ephemeral key (`ECDH`, `X25519`, 253), as the socket reports it. */
  ephemeralKey: { type?: string; name?: string; size?: number } | null;
  /** Whether the chain and name validated against the trust store; requests refuse a connection that did not. */
  authorized: boolean;
  authorizationError: string | null;
  /** The certificates the server sent, DER, the leaf first and then each issuer as Node linked it. */
  chain: Buffer[];
  /** The stapled OCSP response: every HTTPS connection asks for one, as browsers do. */
  ocspResponse: Buffer | null;
}

/** The guarded network, one instance per scan (its concurrency limit is per scan). */
export interface Net {
  /** Raw DNS query to the configured resolvers (DVS_DNS_SERVERS, else the system's), over UDP with TCP fallback. */
  dns(name: string, type: DnsRecordType, opts?: { signal?: AbortSignal; dnssecOk?: boolean }): Promise<DnsResponse>;
  /** A and AAAA of a host, policy-checked; throws NetError('policy_refused') if none is allowed. */
  resolve(host: string, opts?: { signal?: AbortSignal }): Promise<ResolvedAddress[]>;
  /** An HTTP(S) request pinned to a policy-checked address, bounded by the configured limits. */
  request(url: string, opts?: HttpRequestOptions): Promise<HttpExchange>;
  /**
   * The handshake of the scan's HTTPS connection to `url`'s origin at the address: the first one its requests
   * set up there, or one set up now and kept for them. A certificate that does not validate is described here,
   * though requests refuse the connection.
   */
  handshake(url: string, opts?: { address?: ResolvedAddress; signal?: AbortSignal }): Promise<TlsHandshake>;
  /** A TLS handshake pinned to a policy-checked address. The caller must destroy the socket. */
  tls(host: string, opts?: TlsConnectOptions): Promise<TlsConnection>;
  /** A TCP connection pinned to a policy-checked address (raw ClientHello probes). The caller must destroy it. */
  tcp(host: string, port: number, opts?: { signal?: AbortSignal; address?: ResolvedAddress }): Promise<Socket>;
  /** The ports probes use for http:// and https:// on scanned hosts (80/443 unless configured). */
  readonly ports: { http: number; https: number };
  /** Time allowed for one request or handshake: probes that read raw sockets wait no longer than this. */
  readonly requestTimeoutMs: number;
  /** Trust anchors in use (system roots plus DVS_EXTRA_CA), PEM. */
  readonly ca: readonly string[];
  /** Runs `fn` (a probe, or a part of one) with its network operations traced under `scope`. */
  within<T>(scope: string, fn: () => T): T;
}

/** One network operation of a scan as the trace saw it (see request-trace.ts). */
export interface TracedOperation {
  id: number;
  kind: 'dns' | 'tcp' | 'tls' | 'http';
  target: string;
  scope: string | null;
  /** When the probe asked for it; until `startMs` it waited for a slot under the scan's concurrency limit. */
  askedMs: number;
  startMs: number;
  endMs: number;
  waitedFor: number | null;
  ok: boolean;
}

/** The HTTP connections a scan set up to one origin at one address (connection-pools.ts). */
export interface HttpConnectionCount {
  origin: string;
  address: string;
  /** What the connections speak: HTTP/1.1 until one settled on h2 in ALPN. */
  httpVersion: HttpExchange['httpVersion'];
  connections: number;
}

/** The Net a scan owns: the probes' Net, plus what only the scan's owner does with it. */
export interface ScanNet extends Net {
  /** Ends every connection this Net keeps open; the scanner calls it once the scan is over. */
  close(): Promise<void>;
  /** The operations traced so far, when the Net was created with `trace`; empty otherwise. */
  trace(): readonly TracedOperation[];
  /** The HTTP connections set up so far, per origin and address, whether or not the Net traces. */
  httpConnections(): readonly HttpConnectionCount[];
}
