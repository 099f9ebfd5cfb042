// The verifier's own HTTP client for a trusted issuer: its JWK set, certificate status, evidence and log.
// This is not a scan: the user chose to trust the issuer, so it is reached the way any client reaches a
// server (a local development service included) rather than through the scanner's guarded network layer.
// It stays careful all the same: https only, one origin, no redirects, bounded in size and time.
import { Resolver } from 'node:dns/promises';
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { parseStrictJson } from '../lib/strict-json.ts';
import { originProblem } from '../lib/https-origin.ts';
import { secureContexts } from '../net/secure-contexts.ts';

export interface IssuerClientOptions {
  /** PEM certificates the issuer's TLS chain is checked against (the default roots plus any extra). */
  ca: string[];
  /** DNS servers (host[:port]) to ask; the system resolver when empty. */
  dnsServers: string[];
  timeoutMs: number;
}

export interface IssuerResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export class IssuerFetchError extends Error {
  override name = 'IssuerFetchError';
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** RFC 6761 section 6.3: localhost names are loopback, whatever a resolver says. */
const isLocalhost = (host: string) => host === 'localhost' || host.endsWith('.localhost');

function makeLookup(dnsServers: string[], timeoutMs: number) {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (dnsServers.length > 0) resolver.setServers(dnsServers);
  const answer = (cb: LookupCallback, all: boolean, addresses: LookupAddress[]) => {
    if (addresses.length === 0) return cb(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
    return all ? cb(null, addresses) : cb(null, addresses[0]!.address, addresses[0]!.family);
  };
  return (hostname: string, opts: { all?: boolean }, cb: LookupCallback): void => {
    const host = hostname.toLowerCase();
    const all = opts.all === true;
    if (isLocalhost(host)) return answer(cb, all, [{ address: '127.0.0.1', family: 4 }]);
    if (dnsServers.length === 0) {
      systemLookup(host, { all: true }, (err, addresses) => (err ? cb(err, []) : answer(cb, all, addresses)));
      return;
    }
    // allSettled never rejects: a name with no address of either family ends as ENOTFOUND.
    void Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]).then(([v4, v6]) => {
      const addresses = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      answer(cb, all, addresses);
    });
  };
}

export class IssuerClient {
  private readonly agent: Agent;

  constructor(
    /** The trusted issuer's origin; every request stays on it. */
    readonly origin: string,
    private readonly opts: IssuerClientOptions,
  ) {
    const problem = originProblem(origin);
    if (problem) throw new IssuerFetchError(`issuer ${origin} is not a plain https origin: ${problem}`);
    // One context for every connection: given the store as `ca`, each connection had OpenSSL parse all ~150
    // roots again, 23 ms of blocked event loop each.
    const secureContext = secureContexts(opts.ca).get();
    this.agent = new Agent({
      connect: { secureContext, timeout: opts.timeoutMs, lookup: makeLookup(opts.dnsServers, opts.timeoutMs) },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      maxHeaderSize: 32 * 1024,
    });
  }

  /** GETs a path on the issuer's origin, reading at most maxBytes of body. */
  async get(pathAndQuery: string, maxBytes: number, accept = 'application/json'): Promise<IssuerResponse> {
    if (!pathAndQuery.startsWith('/')) throw new IssuerFetchError(`${pathAndQuery}: not a path`);
    const url = this.origin + pathAndQuery;
    try {
      const res = await request(url, {
        dispatcher: this.agent,
        headers: { accept },
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new IssuerFetchError(`${url}: larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
      const type = res.headers['content-type'];
      return { status: res.statusCode, contentType: String(type ?? ''), body: Buffer.concat(chunks) };
    } catch (err) {
      if (err instanceof IssuerFetchError) throw err;
      const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
      const why = e.cause?.code ?? e.code ?? e.cause?.message ?? e.message;
      throw new IssuerFetchError(`${url}: ${why}`);
    }
  }

  /** GETs a JSON document (strictly parsed) that must answer 200. */
  async getJson(pathAndQuery: string, maxBytes: number): Promise<unknown> {
    const res = await this.get(pathAndQuery, maxBytes);
    const url = this.origin + pathAndQuery;
    if (res.status !== 200) throw new IssuerFetchError(`${url}: HTTP ${res.status}`);
    try {
      return parseStrictJson(res.body.toString('utf8'));
    } catch (err) {
      throw new IssuerFetchError(`${url}: ${(err as Error).message}`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
