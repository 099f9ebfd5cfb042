// HTTP(S) requests to scanned hosts with undici: each hop is resolved and policy-checked, then sent over one of
// the scan's kept connections to exactly the checked address (connection-pools.ts), with the certificate checked
// against the URL's host. Redirects are followed here, by hand, so every hop passes the same checks.
import { setImmediate } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { NetLimits } from '../lib/config.ts';
import {
  NetError,
  type HttpConnectionCount,
  type HttpExchange,
  type HttpHop,
  type HttpRequestOptions,
  type ResolvedAddress,
  type TlsHandshake,
} from './types.ts';
import { classifyHost, rawUrlHost } from './address-policy.ts';
import type { Resolver } from './resolver.ts';
import type { Semaphore } from './semaphore.ts';
import type { RequestSigner } from './web-bot-auth.ts';
import { createDeadline, type Deadline } from './deadline.ts';
import { readCappedBody } from './body-reader.ts';
import { toNetError } from './errors.ts';
import { createConnectionPools, type ConnectionPools, type KeptPool, type PoolSizes } from './connection-pools.ts';
import type { SecureContexts } from './secure-contexts.ts';
import type { HopResponse } from './h2-connection.ts';
import { onAbort, waitUnder } from './on-abort.ts';
import type { Asked, RequestTrace } from './request-trace.ts';
import { locationOf } from './location.ts';
import { memoiseRequests, type Sent } from './request-memo.ts';
import { SPACE_OR_TAB, trimOf } from '../lib/trim.ts';

export interface HttpClientDeps {
  resolver: Resolver;
  /** Requests in flight at once over HTTP/1.1 connections, or to hosts not yet known to speak HTTP/2. */
  semaphore: Semaphore;
  /** Requests in flight at once to hosts that speak HTTP/2, where they share connections as streams. */
  streams: Semaphore;
  sizes: PoolSizes;
  limits: NetLimits;
  /** The trust store's contexts, built at the first connection that needs one and kept for the process. */
  secureContexts: SecureContexts;
  userAgent: string;
  signer: RequestSigner | null;
  trace: RequestTrace | null;
}

export interface HttpClient {
  request(url: string, opts?: HttpRequestOptions): Promise<HttpExchange>;
  /** The handshake of the scan's HTTPS connection to `url`'s origin at the address (types.ts, `Net`). */
  handshake(url: string, opts?: { address?: ResolvedAddress; signal?: AbortSignal }): Promise<TlsHandshake>;
  /** Ends every kept connection (the scan is over). */
  close(): Promise<void>;
  /** The connections set up so far, per origin and address. */
  connections(): HttpConnectionCount[];
}

type Method = NonNullable<HttpRequestOptions['method']>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials; they never follow a redirect to another origin. */
const ORIGIN_BOUND = ['authorization', 'cookie', 'proxy-authorization'];
/** A redirect's body is read up to this much so its connection can serve the next request; past it, dropped. */
const REDIRECT_BODY_DRAIN_BYTES = 64 * 1024;

/** One request as it moves along its redirect chain. */
interface Exchange {
  readonly startUrl: string;
  readonly opts: HttpRequestOptions;
  readonly deadline: Deadline;
  readonly chain: HttpHop[];
  /** Header names lower-cased; credentials are dropped from here when a redirect leaves the origin. */
  readonly callerHeaders: Record<string, string>;
  url: URL;
  method: Method;
  body: HttpRequestOptions['body'];
  pin: ResolvedAddress | null;
  kept: KeptPool | null;
  /** For the trace: when the caller asked (before the slot), and the previous hop's entry. */
  readonly asked: Asked | undefined;
  previousHop: number | undefined;
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
  fieldLines: Record<string, string[]>;
  bytes: number;
} {
  // Without prototypes: a host may name a field `constructor` or `__proto__`, as any other token.
  const headers = Object.create(null) as Record<string, string>;
  const fieldLines = Object.create(null) as Record<string, string[]>;
  let bytes = 0;
  for (const [rawName, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    const values = Array.isArray(value) ? value : [value];
    bytes += values.reduce((sum, v) => sum + name.length + v.length + 4, 0);
    fieldLines[name] = [...(fieldLines[name] ?? []), ...values];
    if (name !== 'set-cookie') headers[name] = fieldLines[name].join(', ');
  }
  return { headers, fieldLines, bytes };
}

/** The method of the next hop (RFC 9110 section 15.4: 303, and 301/302 after POST, become GET). */
function nextMethod(status: number, method: Method): Method {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/** Drops a body nobody will read; a small one is read out so its connection stays usable. */
function drain(body: Readable): void {
  let read = 0;
  body.on('error', () => undefined);
  body.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > REDIRECT_BODY_DRAIN_BYTES) body.destroy();
  });
}

/** The hop's address: the one the caller pinned (first hop only), else the first checked address of its host. */
async function pinHop(deps: HttpClientDeps, x: Exchange): Promise<ResolvedAddress> {
  if (x.chain.length === 0 && x.opts.address) return deps.resolver.checkAddress(x.opts.address);
  return (await deps.resolver.resolve(x.url.hostname, { signal: x.deadline.signal }))[0]!;
}

async function hopHeaders(deps: HttpClientDeps, x: Exchange): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    'user-agent': deps.userAgent,
    ...(x.opts.decompress ? { 'accept-encoding': 'gzip, deflate, br' } : {}),
    ...x.callerHeaders,
  };
  if (deps.signer) Object.assign(headers, await deps.signer({ method: x.method, url: x.url.href, headers }));
  return headers;
}

/** Sends one hop over a kept connection to its checked address. */
async function sendHop(deps: HttpClientDeps, pools: ConnectionPools, x: Exchange): Promise<HopResponse> {
  const headers = await hopHeaders(deps, x);
  x.kept = pools.get(x.url, x.pin!);
  const pending = x.kept.request({
    path: `${x.url.pathname}${x.url.search}`,
    method: x.method,
    headers,
    body: x.method === 'GET' || x.method === 'HEAD' ? null : (x.body ?? null),
    signal: x.deadline.signal,
  });
  return underDeadline(pending, x.deadline);
}

/**
 * undici settles a request whose signal fired only once the request reaches a connection, which behind a stuck
 * connection or a set-up that never completes is much later: the deadline does not wait for it. A response
 * that arrives after all is dropped.
 */
function underDeadline(pending: Promise<HopResponse>, deadline: Deadline) {
  return new Promise<HopResponse>((resolve, reject) => {
    const fail = (): void => reject(deadline.failure());
    if (deadline.signal.aborted) fail();
    const unsubscribe = onAbort(deadline.signal, fail);
    pending.then(
      (response) => {
        unsubscribe();
        if (!deadline.signal.aborted) return resolve(response);
        response.body.on('error', () => undefined);
        response.body.destroy();
      },
      (err: Error) => {
        unsubscribe();
        reject(err);
      },
    );
  });
}

/** Moves the exchange to the redirect's target, or throws when the chain may not go on. */
function followRedirect(x: Exchange, status: number, location: string, maxRedirects: number): void {
  if (x.chain.length > maxRedirects) {
    throw new NetError('too_many_redirects', `more than ${maxRedirects} redirects from ${x.startUrl}`, undefined, [
      ...x.chain,
    ]);
  }
  let next: URL;
  try {
    next = parseTarget(location, x.url, 'bad_redirect');
  } catch (err) {
    const e = err as NetError;
    throw new NetError(e.code, e.message, `redirect hop ${x.chain.length}: Location ${location}`, [...x.chain]);
  }
  if (next.origin !== x.url.origin) for (const name of ORIGIN_BOUND) delete x.callerHeaders[name];
  x.method = nextMethod(status, x.method);
  if (x.method === 'GET') x.body = undefined;
  x.url = next;
}

/** Reads the final response's body under the cap and describes the exchange. */
async function finish(x: Exchange, response: HopResponse, cap: number, ttfbMs: number): Promise<HttpExchange> {
  const { headers, fieldLines, bytes } = flattenHeaders(response.headers);
  const contentEncoding = trimOf(headers['content-encoding'] ?? '', SPACE_OR_TAB).toLowerCase() || null;
  const read = await readCappedBody(response.body, cap, x.opts.decompress ? contentEncoding : null);
  return {
    url: x.url.href,
    status: response.statusCode,
    headers,
    fieldLines,
    headerBytes: bytes,
    body: read.body,
    truncated: read.truncated,
    contentEncoding,
    wireBytes: read.wireBytes,
    // What the endpoint's connection settled on in ALPN.
    httpVersion: x.kept!.httpVersion,
    chain: x.chain,
    timings: { ttfbMs: Math.round(ttfbMs), totalMs: Math.round(x.deadline.elapsed()) },
    address: x.pin!.address,
  };
}

/** The error a failed hop reports: the deadline's, a silent endpoint's, or the network's, with the chain so far. */
function hopFailure(pools: ConnectionPools, x: Exchange, err: unknown): NetError {
  if (err instanceof NetError && err.chain) return err;
  const silence = x.pin ? pools.silence(x.url, x.pin) : undefined;
  const e = x.deadline.signal.aborted ? x.deadline.failure() : (silence ?? toNetError(err, x.url.href));
  if (x.chain.length === 0) return e;
  const detail = `redirect hop ${x.chain.length} to ${x.url.href}${e.detail ? `: ${e.detail}` : ''}`;
  return new NetError(e.code, e.message, detail, [...x.chain]);
}

/** Follows the exchange hop by hop until a final response. */
async function run(deps: HttpClientDeps, pools: ConnectionPools, x: Exchange, cap: number): Promise<Sent> {
  for (;;) {
    const hopStarted = x.deadline.elapsed();
    x.pin = null; // until this hop's address is checked, a failure is not its endpoint's
    const pinned = x.chain.length === 0 && x.opts.address !== undefined;
    x.pin = await pinHop(deps, x);
    // Traced once the hop's address is known: waiting for a slot is the scan's own queue, waiting for DNS is the
    // DNS query's entry. A later hop continues the one before it.
    const end = deps.trace?.begin('http', `${x.method} ${x.url.href}`, {
      ...(x.previousHop === undefined ? { asked: x.asked } : { previous: x.previousHop }),
      ...(pinned ? {} : { host: x.url.hostname }),
    });
    try {
      const response = await sendHop(deps, pools, x);
      const ttfbMs = x.deadline.elapsed() - hopStarted;
      const location = locationOf(response.headers.location);
      x.chain.push({ url: x.url.href, status: response.statusCode, location, address: x.pin.address });
      if (x.opts.followRedirects && REDIRECTS.has(response.statusCode) && location !== null) {
        drain(response.body);
        x.previousHop = end?.(true);
        // A short body is read out by then, and its connection is free for the next hop.
        await setImmediate();
        followRedirect(x, response.statusCode, location, deps.limits.maxRedirects);
        continue;
      }
      const exchange = await finish(x, response, cap, ttfbMs);
      const hop = end?.(true);
      // The body's end reaches us before undici marks the connection free again (a turn of the event loop
      // later): a request sent at once would find it busy and open another connection.
      await setImmediate();
      return { exchange, hop };
    } catch (err) {
      end?.(false);
      throw err;
    }
  }
}

/**
 * Waits for the origin's turn (its first connection says whether requests can share it), then for a slot of the
 * limiter chosen once the turn has come; returns what frees both.
 */
async function slotFor(
  pools: ConnectionPools,
  url: URL,
  limiter: () => Semaphore,
  signal: AbortSignal | undefined,
): Promise<() => void> {
  const turn = pools.turn(url);
  try {
    await waitUnder(turn.ready, signal);
    const release = await limiter().acquire(signal);
    return () => {
      release();
      turn.done();
    };
  } catch (err) {
    turn.done();
    throw err;
  }
}

/** A connection set-up as a request's is: after the origin's first, in a slot, under the time limit. */
async function handshake(
  deps: HttpClientDeps,
  pools: ConnectionPools,
  startUrl: string,
  opts: { address?: ResolvedAddress; signal?: AbortSignal } = {},
): Promise<TlsHandshake> {
  const { limits } = deps;
  const url = parseTarget(startUrl, null, 'bad_url');
  if (url.protocol !== 'https:') throw new NetError('bad_url', `${startUrl} is not an https: URL`);
  const free = await slotFor(pools, url, () => deps.semaphore, opts.signal);
  const deadline = createDeadline(limits.requestTimeoutMs, opts.signal);
  let kept: KeptPool | null = null;
  let pin: ResolvedAddress | null = null;
  const unsubscribe = onAbort(deadline.signal, () => {
    if (kept && deadline.failure().code === 'timeout') pools.timedOut(kept);
  });
  try {
    pin = opts.address
      ? deps.resolver.checkAddress(opts.address)
      : (await deps.resolver.resolve(url.hostname, { signal: deadline.signal }))[0]!;
    kept = pools.get(url, pin);
    return await waitUnder(kept.handshake(), deadline.signal);
  } catch (err) {
    const silence = pin ? pools.silence(url, pin) : undefined;
    throw deadline.signal.aborted ? deadline.failure() : (silence ?? toNetError(err, url.href));
  } finally {
    unsubscribe();
    deadline.clear();
    free();
  }
}

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const { limits } = deps;
  const pools = createConnectionPools(limits, deps.sizes, deps.secureContexts);

  async function send(startUrl: string, opts: HttpRequestOptions = {}): Promise<Sent> {
    const cap = Math.min(opts.maxBodyBytes ?? limits.maxBodyBytes, limits.maxBodyBytes);
    const url = parseTarget(startUrl, null, 'bad_url');
    const asked = deps.trace?.ask();
    // The time limit starts once a slot is free: waiting behind the scan's own requests, or for the host's first
    // connection to say whether requests can share it, is not the host's delay.
    const free = await slotFor(pools, url, () => (pools.multiplexed(url) ? deps.streams : deps.semaphore), opts.signal);
    const deadline = createDeadline(limits.requestTimeoutMs, opts.signal);
    const callerHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(opts.headers ?? {})) callerHeaders[name.toLowerCase()] = value;
    const x: Exchange = {
      ...{ startUrl, opts, deadline, chain: [], callerHeaders, url, method: opts.method ?? 'GET' },
      ...{ body: opts.body, pin: null, kept: null, asked, previousHop: undefined },
    };
    const unsubscribe = onAbort(deadline.signal, () => {
      if (x.kept && deadline.failure().code === 'timeout') pools.timedOut(x.kept);
    });
    try {
      return await run(deps, pools, x, cap);
    } catch (err) {
      throw hopFailure(pools, x, err);
    } finally {
      unsubscribe();
      deadline.clear();
      free();
    }
  }

  const memo = memoiseRequests({
    send,
    async addressOf(url, opts) {
      if (opts.address) return opts.address.address;
      // Resolved names are memoised per scan, so this is the address the request itself will be pinned to.
      const addresses = await deps.resolver.resolve(url.hostname, { signal: opts.signal }).catch(() => null);
      return addresses?.[0]?.address ?? null;
    },
    received(hop) {
      if (hop !== undefined) deps.trace?.received(hop);
    },
    maxBodyBytes: limits.maxBodyBytes,
  });
  return {
    request: (url, opts) => memo.request(url, opts),
    handshake: (url, opts) => handshake(deps, pools, url, opts),
    close: () => {
      memo.close();
      return pools.close();
    },
    connections: () => pools.counts(),
  };
}
