// The guarded network layer: one Net per scan, the only way a probe reaches a scanned host.
import type { Config } from '../lib/config.ts';
import type { Net, ScanNet } from './types.ts';
import { createAddressPolicy, type AddressPolicy } from './address-policy.ts';
import { createDnsClient, type DnsClient } from './dns-client.ts';
import { memoiseDns } from './dns-memo.ts';
import { createResolver, type Resolver } from './resolver.ts';
import { createSemaphore } from './semaphore.ts';
import { loadTrustStore } from './trust-store.ts';
import { createHttpClient } from './http-client.ts';
import { createSocketClients } from './socket-client.ts';
import { createWebBotAuthSigner, type AgentKey } from './web-bot-auth.ts';
import { secureContexts } from './secure-contexts.ts';
import { createRequestTrace, traced, type RequestTrace } from './request-trace.ts';

export { NetError } from './types.ts';
export type * from './types.ts';
export type { TraceEntry, TraceKind } from './request-trace.ts';
export { createWebBotAuthSigner } from './web-bot-auth.ts';
export { encodeSvcb, decodeSvcb, type SvcbData } from './svcb-codec.ts';

export interface NetOptions {
  /** Signs every outgoing HTTP request (Web Bot Auth) when given, with `signatureAgentUrl` as Signature-Agent. */
  agentKey?: AgentKey;
  /** The service's key directory, `<baseUrl>/.well-known/http-message-signatures-directory` by default. */
  signatureAgentUrl?: string;
  /** Record every network operation's timing and what it waited for (the bench's critical path). */
  trace?: boolean;
  /**
   * Connection set-ups and HTTP/1.1 requests in flight at once, and HTTP/1.1 connections kept per endpoint; the
   * configured bound if unset or larger (HTTP/2 streams to one host: STREAMS_PER_SLOT times as many). The two are
   * one number so that a request whose time limit has started never queues inside undici for a connection (under
   * load that wait ended requests to a busy host with a timeout and changed the verdict).
   */
  concurrency?: number;
}

/**
 * Requests one slot of the scan's concurrency may carry over HTTP/2, where they are streams of one connection
 * and cost the host no connection each. Browsers go up to the server's own limit (usually 100); four times the
 * HTTP/1.1 bound keeps a scan's load on a host near a page load's.
 */
const STREAMS_PER_SLOT = 4;
/**
 * Slots the probes' bare handshakes (the TLS probe's protocol and cipher checks, the reachability probe's) leave
 * to HTTP: a Full Validation's TLS probe asks for 17 at once, and the first HTTP request of every other probe
 * waited behind them for a whole round trip.
 */
const KEPT_FOR_REQUESTS = 2;

/** DNS and name resolution for one scan: each name and type is asked once (dns-memo.ts). */
function memoisedLookups(raw: DnsClient, policy: AddressPolicy): { dns: DnsClient; resolver: Resolver } {
  const dns = memoiseDns(raw);
  return { dns, resolver: createResolver(dns, policy) };
}

/**
 * The same, telling the trace what they did: each query sent is an entry, and a caller that gets a name's
 * addresses (possibly looked up for another probe) has received that name's A and AAAA answers.
 */
function tracedLookups(
  dns: DnsClient,
  policy: AddressPolicy,
  trace: RequestTrace,
): { dns: DnsClient; resolver: Resolver } {
  const tracedDns: DnsClient = memoiseDns({
    query: (name, type, o) =>
      traced(
        trace,
        'dns',
        `${name} ${type}`,
        () => dns.query(name, type, o),
        (id) => (type === 'A' || type === 'AAAA') && trace.answered(name, id),
      ),
  });
  const resolver = createResolver(tracedDns, policy);
  return {
    dns: tracedDns,
    resolver: {
      async resolve(host, o) {
        const addresses = await resolver.resolve(host, o);
        trace.resolved(host);
        return addresses;
      },
      checkAddress: (address) => resolver.checkAddress(address),
    },
  };
}

export function createNet(config: Config, opts: NetOptions = {}): ScanNet {
  const { limits } = config.net;
  const trace = opts.trace ? createRequestTrace() : null;
  const policy = createAddressPolicy(config.net.allowNetworks);
  const rawDns = createDnsClient({ servers: config.net.dnsServers, timeoutMs: limits.dnsTimeoutMs });
  const { dns, resolver } = trace ? tracedLookups(rawDns, policy, trace) : memoisedLookups(rawDns, policy);
  const concurrency = Math.min(opts.concurrency ?? limits.maxConcurrentPerScan, limits.maxConcurrentPerScan);
  const semaphore = createSemaphore(concurrency);
  const ca = loadTrustStore(config.net.extraCaFile);
  const signer = opts.agentKey
    ? createWebBotAuthSigner(
        opts.agentKey,
        opts.signatureAgentUrl ?? `${config.baseUrl}/.well-known/http-message-signatures-directory`,
      )
    : null;
  const http = createHttpClient({
    resolver,
    semaphore,
    limits,
    streams: createSemaphore(concurrency * STREAMS_PER_SLOT),
    sizes: { connectionsPerEndpoint: concurrency },
    // A context is built at the first HTTPS connection, not here: a Net that makes none (a DNS-only check, a
    // service that has not scanned yet) never pays for one (30 ms or more with NODE_EXTRA_CA_CERTS set).
    secureContexts: secureContexts(ca),
    userAgent: config.net.userAgent,
    signer,
    trace,
  });
  const handshakes = createSemaphore(Math.max(1, concurrency - KEPT_FOR_REQUESTS));
  const sockets = createSocketClients({
    ...{ resolver, semaphore, handshakes, limits, ca },
    ...{ httpsPort: config.net.probeHttpsPort, trace },
  });

  const net: Net = {
    dns: (name, type, dnsOpts) => dns.query(name, type, dnsOpts),
    resolve: (host, resolveOpts) => resolver.resolve(host, resolveOpts),
    request: (url, requestOpts) => http.request(url, requestOpts),
    handshake: (url, handshakeOpts) => http.handshake(url, handshakeOpts),
    tls: (host, tlsOpts) => sockets.tls(host, tlsOpts),
    tcp: (host, port, tcpOpts) => sockets.tcp(host, port, tcpOpts),
    ports: { http: config.net.probeHttpPort, https: config.net.probeHttpsPort },
    requestTimeoutMs: limits.requestTimeoutMs,
    ca,
    within: (scope, fn) => (trace ? trace.scope(scope, fn) : fn()),
  };
  return {
    ...net,
    close: () => http.close(),
    trace: () => trace?.entries() ?? [],
    httpConnections: () => http.connections(),
  };
}
