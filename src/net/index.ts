// The guarded network layer: one Net per scan, the only way a probe reaches a scanned host.
import type { Config } from '../lib/config.ts';
import type { Net } from './types.ts';
import { createAddressPolicy } from './address-policy.ts';
import { createDnsClient } from './dns-client.ts';
import { createResolver } from './resolver.ts';
import { createSemaphore } from './semaphore.ts';
import { loadTrustStore } from './trust-store.ts';
import { createHttpClient } from './http-client.ts';
import { createSocketClients } from './socket-client.ts';
import { createWebBotAuthSigner, type AgentKey } from './web-bot-auth.ts';
import { secureContexts } from './secure-contexts.ts';

export { NetError } from './types.ts';
export type * from './types.ts';
export { verifyWebBotAuth, createWebBotAuthSigner, type WebBotAuthVerdict } from './web-bot-auth.ts';
export { encodeSvcb, decodeSvcb, type SvcbData } from './svcb-codec.ts';

export interface NetOptions {
  /** Signs every outgoing HTTP request (Web Bot Auth) when given, with `signatureAgentUrl` as Signature-Agent. */
  agentKey?: AgentKey;
  /** The service's key directory, `<baseUrl>/.well-known/http-message-signatures-directory` by default. */
  signatureAgentUrl?: string;
}

export function createNet(config: Config, opts: NetOptions = {}): Net {
  const { limits } = config.net;
  const policy = createAddressPolicy(config.net.allowNetworks);
  const dns = createDnsClient({ servers: config.net.dnsServers, timeoutMs: limits.dnsTimeoutMs });
  const resolver = createResolver(dns, policy);
  const semaphore = createSemaphore(limits.maxConcurrentPerScan);
  const ca = loadTrustStore(config.net.extraCaFile);
  const signer = opts.agentKey
    ? createWebBotAuthSigner(
        opts.agentKey,
        opts.signatureAgentUrl ?? `${config.baseUrl}/.well-known/http-message-signatures-directory`,
      )
    : null;
  const secureContext = secureContexts(ca).get();
  const request = createHttpClient({
    resolver,
    semaphore,
    limits,
    secureContext,
    userAgent: config.net.userAgent,
    signer,
  });
  const sockets = createSocketClients({ resolver, semaphore, limits, ca, httpsPort: config.net.probeHttpsPort });

  return {
    dns: (name, type, dnsOpts) => dns.query(name, type, dnsOpts),
    resolve: (host, resolveOpts) => resolver.resolve(host, resolveOpts),
    request,
    tls: (host, tlsOpts) => sockets.tls(host, tlsOpts),
    tcp: (host, port, tcpOpts) => sockets.tcp(host, port, tcpOpts),
    ports: { http: config.net.probeHttpPort, https: config.net.probeHttpsPort },
    requestTimeoutMs: limits.requestTimeoutMs,
    ca,
  };
}
