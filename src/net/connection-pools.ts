// The HTTP connections one scan keeps: one undici Pool per endpoint (scheme, host name, port and the pinned
// address), so the scan's requests to a host share a few kept-alive connections instead of a handshake each.
// Every pool connects only to its checked address (the lookup is pinned) and checks the certificate against the
// URL's host. HTTPS connections offer h2 in ALPN, as browsers do: where the host takes it, one connection carries
// many requests at once. The scan closes them all when it ends.
import type { LookupFunction, Socket } from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import type { Client, Pool } from 'undici';
import { lazyRequire } from '../lib/lazy-require.ts';
import { NetError, type ResolvedAddress } from './types.ts';

// undici is loaded by the first scan's first request, not by every process that can scan (a starting service).
const undici = lazyRequire<typeof import('undici')>('undici');

export interface PoolLimits {
  requestTimeoutMs: number;
  maxHeaderBytes: number;
}

export interface PoolSizes {
  /** HTTP/1.1 connections kept per endpoint, each carrying one request at a time. */
  connectionsPerEndpoint: number;
  /** Requests one HTTP/2 connection carries at once. */
  streamsPerConnection: number;
}

export type HttpVersion = '1.1' | '2';

/** A kept pool, whether any of its connection set-ups has completed, and what its connections speak. */
export interface KeptPool {
  readonly pool: Pool;
  /** `scheme//address:port`: what one connection set-up reaches. */
  readonly endpoint: string;
  connected: boolean;
  /** The protocol ALPN settled on the last connection set up (HTTP/1.1 until one is). */
  httpVersion: HttpVersion;
}

export interface ConnectionPools {
  /** The pool for `url`'s origin at `pin`; throws the remembered failure of a silent endpoint. */
  get(url: URL, pin: ResolvedAddress): KeptPool;
  /** A request's time limit ran out: a pool that never completed a connection set-up marks its endpoint silent. */
  timedOut(kept: KeptPool): void;
  /** Whether `url`'s origin already has an HTTP/2 connection: its requests then share it rather than queue. */
  multiplexed(url: URL): boolean;
  /** The failure remembered for the endpoint of `url` at `pin`, if it went silent. */
  silence(url: URL, pin: ResolvedAddress): NetError | undefined;
  /** Ends every kept connection; later requests are refused. */
  close(): Promise<void>;
}

/** How long before the server's announced idle timeout a kept connection stops being reused. */
const KEEP_ALIVE_MARGIN_MS = 400;
/** How many times its host-time limit a request may take in wall time, as the scan's own ceiling allows. */
const WALL_CLOCK_CEILING = 3;

/** Node 20's autoSelectFamily asks with `{ all: true }` and wants a list; older callers want one address. */
function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pin.address, family: pin.family }]);
    else callback(null, pin.address, pin.family);
  }) as unknown as LookupFunction;
}

function endpointOf(url: URL, pin: ResolvedAddress): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${pin.family === 6 ? `[${pin.address}]` : pin.address}:${port}`;
}

function versionOf(socket: Socket): HttpVersion {
  return (socket as TLSSocket).alpnProtocol === 'h2' ? '2' : '1.1';
}

export function createConnectionPools(
  limits: PoolLimits,
  sizes: PoolSizes,
  secureContext: SecureContext,
): ConnectionPools {
  const pools = new Map<string, KeptPool>();
  const multiplexedOrigins = new Set<string>();
  // An endpoint that let a connection set-up (TCP and TLS handshake) run out its time limit is a fact learnt
  // once per scan: later requests to it fail at once with the same error. A silent host would otherwise cost a
  // full limit per request, dozens in a full scan, and push the scan past its deadline.
  const silent = new Map<string, NetError>();
  let closed = false;

  const open = (url: URL, pin: ResolvedAddress, endpoint: string): KeptPool => {
    const { Client, Pool, buildConnector } = undici();
    // undici's header and body timers are off: the request's deadline is the one limit, on host time. Its connect
    // timer stays as a backstop at the wall-clock ceiling (3x) for a set-up nobody waits for any more.
    const connect = buildConnector({
      lookup: pinnedLookup(pin),
      secureContext,
      timeout: limits.requestTimeoutMs * WALL_CLOCK_CEILING,
      allowH2: true,
    });
    // A client carries one request at a time until its connection turns out to speak HTTP/2 (undici gives an h2
    // connection the client's pipelining as its stream limit); then it takes the scan's stream allowance.
    const clientOf = (origin: URL | string, options: Client.Options): Client => {
      const client: Client = new Client(origin, {
        ...options,
        connect: (params, callback) =>
          connect(params, (err, socket) => {
            if (socket) kept.httpVersion = versionOf(socket);
            callback(err as null, socket as Socket);
            if (kept.httpVersion !== '2') return;
            multiplexedOrigins.add(url.origin);
            client.pipelining = sizes.streamsPerConnection;
          }),
      });
      return client;
    };
    const pool = new Pool(url.origin, {
      connections: sizes.connectionsPerEndpoint,
      factory: clientOf,
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: 0,
      bodyTimeout: 0,
      pipelining: 1,
      allowH2: true,
      // undici keeps a connection for the server's Keep-Alive timeout less this margin, 2 s by default: servers
      // that keep idle connections 1 or 2 s (Node's own default is 5 s) would then never see one reused.
      keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
    });
    const kept: KeptPool = { pool, endpoint, connected: false, httpVersion: '1.1' };
    pool.on('connect', () => (kept.connected = true));
    return kept;
  };

  return {
    get(url, pin) {
      if (closed) throw new NetError('aborted', 'the scan is over: its connections are closed');
      const endpoint = endpointOf(url, pin);
      const known = silent.get(endpoint);
      if (known) throw known;
      const key = `${url.origin} ${endpoint}`;
      let kept = pools.get(key);
      if (!kept) {
        kept = open(url, pin, endpoint);
        pools.set(key, kept);
      }
      return kept;
    },
    timedOut(kept) {
      if (kept.connected) return;
      const detail = `${kept.endpoint} did not complete a connection within ${limits.requestTimeoutMs} ms`;
      silent.set(kept.endpoint, new NetError('timeout', detail));
      // undici does not give up a connection set-up when a request's signal fires: destroying the pool does.
      for (const [key, other] of pools) {
        if (other.endpoint !== kept.endpoint || other.connected) continue;
        pools.delete(key);
        other.pool.destroy().catch(() => undefined);
      }
    },
    multiplexed: (url) => multiplexedOrigins.has(url.origin),
    silence: (url, pin) => silent.get(endpointOf(url, pin)),
    async close() {
      closed = true;
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((k) => k.pool.destroy().catch(() => undefined)));
    },
  };
}
