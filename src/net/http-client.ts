// HTTP(S) requests to scanned hosts with undici: each hop is resolved and policy-checked, then connected to
// exactly the checked address (the connector's lookup is pinned), with the certificate checked against the
// URL's host. Redirects are followed here, by hand, so every hop passes the same checks.
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import type { SecureContext } from 'node:tls';
import { Client } from 'undici';
import type { NetLimits } from '../lib/config.ts';
import { NetError, type HttpExchange, type HttpHop, type HttpRequestOptions, type ResolvedAddress } from './types.ts';
import { classifyHost, rawUrlHost } from './address-policy.ts';
import type { Resolver } from './resolver.ts';
import type { Semaphore } from './semaphore.ts';
import type { RequestSigner } from './web-bot-auth.ts';
import { createDeadline } from './deadline.ts';
import { readCappedBody } from './body-reader.ts';
import { toNetError } from './errors.ts';

export interface HttpClientDeps {
  resolver: Resolver;
  semaphore: Semaphore;
  limits: NetLimits;
  /** Built once per Net from the trust store: building one per connection would re-parse every root. */
  secureContext: SecureContext;
  userAgent: string;
  signer: RequestSigner | null;
}

type Method = NonNullable<HttpRequestOptions['method']>;

/** How many times its host-time limit a request may take in wall time, as the scan's own ceiling allows. */
const WALL_CLOCK_CEILING = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials; they never follow a redirect to another origin. */
const ORIGIN_BOUND = ['authorization', 'cookie', 'proxy-authorization'];

/** Drops a body nobody will read; the error its destruction emits is expected, not a failure. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Node 20's autoSelectFamily asks with `{ all: true }` and wants a list; older callers want one address. */
function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pin.address, family: pin.family }]);
    else callback(null, pin.address, pin.family);
  }) as unknown as LookupFunction;
}

/** Parses a URL a probe or a Location header gave; odd numeric host spellings are refused before parsing. */
function parseTarget(text: string, base: URL | null, invalid: 'bad_url' | 'bad_redirect'): URL {
  let url: URL;
  try {
    url = base ? new URL(text, base) : new URL(text);
  } catch {
    throw new NetError(invalid, `not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new NetError(invalid, `unsupported scheme in ${text}`);
  const raw = rawUrlHost(text);
  if (raw !== null && classifyHost(raw).kind === 'odd-ip') {
    throw new NetError('policy_refused', `${raw} is an IP address in a non-canonical spelling`, raw);
  }
  return url;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): {
  headers: Record<string, string>;
  setCookies: string[];
  bytes: number;
} {
  const headers: Record<string, string> = {};
  let setCookies: string[] = [];
  let bytes = 0;
  for (const [rawName, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    const values = Array.isArray(value) ? value : [value];
    bytes += values.reduce((sum, v) => sum + name.length + v.length + 4, 0);
    if (name === 'set-cookie') setCookies = values;
    else headers[name] = values.join(', ');
  }
  return { headers, setCookies, bytes };
}

/** The method and body of the next hop (RFC 9110 section 15.4: 303, and 301/302 after POST, become GET). */
function nextMethod(status: number, method: Method): Method {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/** `scheme//address:port`: what one connection set-up reaches. */
function endpointOf(url: URL, pin: ResolvedAddress): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${pin.family === 6 ? `[${pin.address}]` : pin.address}:${port}`;
}

export function createHttpClient(
  deps: HttpClientDeps,
): (url: string, opts?: HttpRequestOptions) => Promise<HttpExchange> {
  const { limits } = deps;
  // An endpoint that let a connection set-up (TCP and TLS handshake) run out its time limit is a fact learnt
  // once per scan: later requests to it fail at once with the same error. A silent host would otherwise cost a
  // full limit per request, dozens in a full scan, and push the scan past its deadline.
  const silent = new Map<string, NetError>();

  return async function request(startUrl, opts = {}) {
    const cap = Math.min(opts.maxBodyBytes ?? limits.maxBodyBytes, limits.maxBodyBytes);
    let url = parseTarget(startUrl, null, 'bad_url');
    // The time limit starts once a slot is free: waiting behind the scan's own requests is not the host's delay.
    const release = await deps.semaphore.acquire(opts.signal);
    const deadline = createDeadline(limits.requestTimeoutMs, opts.signal);
    const chain: HttpHop[] = [];
    let client: Client | null = null;
    let method: Method = opts.method ?? 'GET';
    let body = opts.body;
    const callerHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(opts.headers ?? {})) callerHeaders[name.toLowerCase()] = value;

    const failHop = (err: unknown): NetError => {
      const e = deadline.signal.aborted ? deadline.failure() : toNetError(err, url.href);
      if (chain.length === 0) return e;
      const detail = `redirect hop ${chain.length} to ${url.href}${e.detail ? `: ${e.detail}` : ''}`;
      return new NetError(e.code, e.message, detail, [...chain]);
    };

    try {
      for (;;) {
        const hopStarted = deadline.elapsed();
        const pin =
          chain.length === 0 && opts.address
            ? deps.resolver.checkAddress(opts.address)
            : (await deps.resolver.resolve(url.hostname, { signal: deadline.signal }))[0]!;
        const headers: Record<string, string> = {
          'user-agent': deps.userAgent,
          ...(opts.decompress ? { 'accept-encoding': 'gzip, deflate, br' } : {}),
          ...callerHeaders,
        };
        if (deps.signer) Object.assign(headers, await deps.signer({ method, url: url.href, headers }));

        const endpoint = endpointOf(url, pin);
        const known = silent.get(endpoint);
        if (known) throw known;
        // undici's header and body timers are off: the deadline is the one limit, on host time. Its connect timer
        // stays as a backstop at the wall-clock ceiling (3x): a connection set-up that never completes is not
        // ended by destroying the client, and would otherwise hold its socket open after the scan.
        client = new Client(url.origin, {
          connect: {
            lookup: pinnedLookup(pin),
            secureContext: deps.secureContext,
            timeout: limits.requestTimeoutMs * WALL_CLOCK_CEILING,
          },
          maxHeaderSize: limits.maxHeaderBytes,
          headersTimeout: 0,
          bodyTimeout: 0,
          pipelining: 1,
        });
        let connected = false;
        const hop = client;
        hop.once('connect', () => (connected = true));
        // undici does not give up a connection set-up when the request's signal fires: closing the client does.
        deadline.signal.addEventListener('abort', () => {
          if (!connected && deadline.failure().code === 'timeout') {
            const detail = `${endpoint} did not complete a connection within ${limits.requestTimeoutMs} ms`;
            silent.set(endpoint, new NetError('timeout', detail));
          }
          hop.destroy().catch(() => undefined);
        });
        const response = await client.request({
          path: `${url.pathname}${url.search}`,
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? null : (body ?? null),
          signal: deadline.signal,
        });
        const ttfbMs = deadline.elapsed() - hopStarted;
        const location = typeof response.headers.location === 'string' ? response.headers.location : null;
        chain.push({ url: url.href, status: response.statusCode, location, address: pin.address });

        if (opts.followRedirects && REDIRECTS.has(response.statusCode) && location !== null) {
          discard(response.body);
          await client.destroy();
          client = null;
          if (chain.length > limits.maxRedirects) {
            throw new NetError(
              'too_many_redirects',
              `more than ${limits.maxRedirects} redirects from ${startUrl}`,
              undefined,
              [...chain],
            );
          }
          let next: URL;
          try {
            next = parseTarget(location, url, 'bad_redirect');
          } catch (err) {
            const e = err as NetError;
            throw new NetError(e.code, e.message, `redirect hop ${chain.length}: Location ${location}`, [...chain]);
          }
          if (next.origin !== url.origin) for (const name of ORIGIN_BOUND) delete callerHeaders[name];
          method = nextMethod(response.statusCode, method);
          if (method === 'GET') body = undefined;
          url = next;
          continue;
        }

        const { headers: flat, setCookies, bytes } = flattenHeaders(response.headers);
        const contentEncoding = flat['content-encoding']?.trim().toLowerCase() || null;
        const read = await readCappedBody(response.body, cap, opts.decompress ? contentEncoding : null);
        return {
          url: url.href,
          status: response.statusCode,
          headers: flat,
          setCookies,
          headerBytes: bytes,
          body: read.body,
          truncated: read.truncated,
          contentEncoding,
          wireBytes: read.wireBytes,
          // undici is not offered h2 here and exposes no status-line version, so every exchange is HTTP/1.1.
          httpVersion: '1.1',
          chain,
          timings: { ttfbMs: Math.round(ttfbMs), totalMs: Math.round(deadline.elapsed()) },
          address: pin.address,
        };
      }
    } catch (err) {
      if (err instanceof NetError && err.chain) throw err;
      throw failHop(err);
    } finally {
      deadline.clear();
      release();
      client?.destroy().catch(() => undefined);
    }
  };
}
