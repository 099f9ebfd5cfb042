// The HTTP connections one scan keeps, per endpoint (scheme, host name, port and the pinned address), so the
// scan's requests to a host share a few kept-alive connections instead of a handshake each. Every connection goes
// only to its checked address (the lookup is pinned) and checks the certificate against the URL's host. The first
// HTTPS connection to an endpoint offers h2 in ALPN, as browsers do: a host that takes it gets every request as a
// stream of that one connection (h2-connection.ts); a host that answers http/1.1 gets an undici Pool of a few
// kept-alive connections, the first of them that one. The scan closes them all when it ends. The first HTTPS
// connection's handshake is kept for the probes that describe one (tls, reachability): they observe it rather than
// making one of their own.
import type { LookupFunction, Socket } from 'node:net';
import { TLSSocket, type DetailedPeerCertificate } from 'node:tls';
import type { Client, Dispatcher, Pool, buildConnector } from 'undici';
import {
  NetError,
  type HttpConnectionCount,
  type HttpExchange,
  type ResolvedAddress,
  type TlsHandshake,
} from './types.ts';
import { openH2Connection, type H2Connection, type HopRequest, type HopResponse } from './h2-connection.ts';
import type { SecureContexts } from './secure-contexts.ts';

/** What a scan uses of undici: a pool of clients, their connector, and the request API called on a pool. */
interface Undici {
  Client: typeof Client;
  Pool: typeof Pool;
  buildConnector: typeof buildConnector;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}
// undici is loaded by the first scan's first connection, not by every process that can scan (a starting service),
// and only the four modules of it a scan uses: the package's index loads the whole of undici (fetch, WebSocket,
// caches, mocks; and its cookies module touches the Headers global, which loads Node's own copy of undici too),
// 1.1 MB that a cold `dvs scan` spent 25 to 40 ms compiling and running. Imported rather than required, so the
// command line's bundle carries them as a chunk of their own; undici-modules.d.ts types them as the package does.
let loading: Promise<Undici> | null = null;
const undici = (): Promise<Undici> =>
  (loading ??= Promise.all([
    import('undici/lib/dispatcher/client.js'),
    import('undici/lib/dispatcher/pool.js'),
    import('undici/lib/core/connect.js'),
    import('undici/lib/api/api-request.js'),
  ]).then(([client, pool, connect, request]) => ({
    Client: client.default,
    Pool: pool.default,
    buildConnector: connect.default,
    request: request.default,
  })));

/** A request on a pool, through the API undici's index would have added to its prototype. */
async function poolRequest(pool: Pool, req: HopRequest): Promise<HopResponse> {
  return (await undici()).request.call(pool, req);
}

export interface PoolLimits {
  requestTimeoutMs: number;
  maxHeaderBytes: number;
}

export interface PoolSizes {
  /** HTTP/1.1 connections kept per endpoint, each carrying one request at a time. */
  connectionsPerEndpoint: number;
}

/** The connections kept to one endpoint. */
export interface KeptPool {
  /** `scheme//address:port`: what one connection set-up reaches. */
  readonly endpoint: string;
  /** Whether any connection set-up to the endpoint has completed. */
  connected: boolean;
  /** What the endpoint's connections speak: HTTP/1.1 until a connection's ALPN settles on h2. */
  httpVersion: HttpExchange['httpVersion'];
  /** Connection set-ups to the endpoint that completed. */
  opened: number;
  request(req: HopRequest): Promise<HopResponse>;
  /** The handshake of the first connection set up to an HTTPS endpoint, set up now if none has been. */
  handshake(): Promise<TlsHandshake>;
  destroy(): Promise<void>;
}

export interface ConnectionPools {
  /** The connections for `url`'s origin at `pin`; throws the remembered failure of a silent endpoint. */
  get(url: URL, pin: ResolvedAddress): KeptPool;
  /** A request's time limit ran out: an endpoint that never completed a connection set-up is marked silent. */
  timedOut(kept: KeptPool): void;
  /** Whether `url`'s origin already has an HTTP/2 connection: its requests then share it rather than queue. */
  multiplexed(url: URL): boolean;
  /**
   * A request's turn to take a slot. The first request to an HTTPS origin goes at once and sets up the connection
   * that tells HTTP/2 from HTTP/1.1; later ones wait until it has (or has failed), so that they share an HTTP/2
   * connection instead of queueing for connections of their own. `done` ends a first request's claim.
   */
  turn(url: URL): { ready: Promise<void>; done(): void };
  /** The failure remembered for the endpoint of `url` at `pin`, if it went silent. */
  silence(url: URL, pin: ResolvedAddress): NetError | undefined;
  /** The connections set up so far (closed ones too), per origin and address. */
  counts(): HttpConnectionCount[];
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

const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

function endpointOf(url: URL, pin: ResolvedAddress): string {
  return `${url.protocol}//${pin.family === 6 ? `[${pin.address}]` : pin.address}:${portOf(url)}`;
}

type Connector = ReturnType<typeof buildConnector>;

/** One connection set-up to `url`'s origin; `started` gets the socket at once, so the set-up can be given up. */
function connectTo(connect: Connector, url: URL, started: (socket: Socket) => void): Promise<Socket> {
  // undici's own clients pass an IPv6 literal without its brackets.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const params = { hostname, host: url.host, protocol: url.protocol, port: portOf(url), localAddress: null };
  return new Promise((resolve, reject) => {
    // undici's connector returns the socket it is setting up, though its type does not say so.
    const socket: unknown = connect(params, (err, connected) => (err ? reject(err) : resolve(connected)));
    started(socket as Socket);
  });
}

/** `connect`, counting each set-up that completes on `kept`. */
const counting =
  (connect: Connector, kept: Pick<KeptPool, 'opened'>): Connector =>
  (params, callback) =>
    connect(params, (...result) => {
      if (result[0] === null) kept.opened++;
      callback(...result);
    });

/** Why a certificate was refused: Node sets the error's code there, though its type says an Error. */
function authorizationCode(socket: TLSSocket): string {
  const error = socket.authorizationError as unknown as string | { code?: string; message?: string } | null;
  return typeof error === 'string' ? error : (error?.code ?? error?.message ?? 'UNKNOWN');
}

/** DER of the leaf and each issuer Node linked to it, stopping where the walk repeats (a self-signed root). */
function peerChain(peer: DetailedPeerCertificate): Buffer[] {
  const out: Buffer[] = [];
  const seen = new Set<string>();
  for (
    let c: DetailedPeerCertificate | undefined = peer;
    c?.raw && !seen.has(c.fingerprint256);
    c = c.issuerCertificate
  ) {
    seen.add(c.fingerprint256);
    out.push(c.raw);
  }
  return out;
}

/** The stapled OCSP response each connection received, by socket: Node emits it and keeps no copy. */
const staples = new WeakMap<Socket, Buffer>();

function describe(socket: TLSSocket, address: string): TlsHandshake {
  const protocol = socket.getProtocol();
  const { name, standardName } = socket.getCipher();
  return {
    address,
    protocol: protocol ?? null,
    alpn: typeof socket.alpnProtocol === 'string' ? socket.alpnProtocol : null,
    cipher: { name, standardName },
    ephemeralKey: socket.getEphemeralKeyInfo(),
    authorized: socket.authorized,
    authorizationError: socket.authorized ? null : authorizationCode(socket),
    chain: peerChain(socket.getPeerCertificate(true)),
    ocspResponse: staples.get(socket) ?? null,
  };
}

/** `connect`, asking every server for a stapled OCSP response and keeping the one it sends. */
const stapling =
  (connect: Connector): Connector =>
  (params, callback) => {
    // undici's connector returns the socket it is setting up, though its type does not say so.
    const socket: unknown = connect(params, callback);
    (socket as Socket).once('OCSPResponse', (response: Buffer) => staples.set(socket as Socket, response));
    return socket;
  };

/**
 * `connect` with the certificate checked after the handshake rather than during it, so that `seen` learns what a
 * refused certificate was; the connection is then refused with the error Node's own check gives (its code).
 */
const verifying =
  (connect: Connector, seen: (socket: TLSSocket) => void): Connector =>
  (params, callback) =>
    connect(params, (...result) => {
      const socket = result[1];
      if (result[0] !== null || !(socket instanceof TLSSocket)) return callback(...result);
      seen(socket);
      if (socket.authorized) return callback(null, socket);
      socket.destroy();
      const code = authorizationCode(socket);
      callback(Object.assign(new Error(`the certificate does not validate: ${code}`), { code }), null);
    });

/** What a scan's connections to one endpoint share with the rest of the scan. */
interface EndpointContext {
  limits: PoolLimits;
  sizes: PoolSizes;
  secureContexts: SecureContexts;
  /** Whether the latest connection set up to the origin speaks HTTP/2. */
  multiplexed(origin: string, speaksH2: boolean): void;
  /** A connection to the origin has told which protocol it speaks. */
  discovered(origin: string): void;
}

/** A few kept-alive HTTP/1.1 connections to `url`'s origin, each set up by `connect`. */
async function http1Pool(url: URL, limits: PoolLimits, sizes: PoolSizes, connect: Connector): Promise<Pool> {
  const { Client, Pool } = await undici();
  // undici's header and body timers are off: the request's deadline is the one limit.
  return new Pool(url.origin, {
    connections: sizes.connectionsPerEndpoint,
    factory: (origin: URL | string, options: Client.Options) => new Client(origin, { ...options, connect }),
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: 0,
    bodyTimeout: 0,
    pipelining: 1,
    // undici keeps a connection for the server's Keep-Alive timeout less this margin, 2 s by default: servers
    // that keep idle connections 1 or 2 s (Node's own default is 5 s) would then never see one reused.
    keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
  });
}

/**
 * Connection set-ups to the pinned address. The connect timer is a backstop at the wall-clock ceiling (3x) for a
 * set-up nobody waits for any more: the request's deadline, on host time, is the one limit.
 */
function connectorTo(
  pin: ResolvedAddress,
  limits: PoolLimits,
  secureContexts: SecureContexts,
  seen: (socket: TLSSocket) => void,
): (allowH2: boolean) => Promise<Connector> {
  return async (allowH2) =>
    verifying(
      stapling(
        (await undici()).buildConnector({
          lookup: pinnedLookup(pin),
          secureContext: secureContexts.get(),
          timeout: limits.requestTimeoutMs * WALL_CLOCK_CEILING,
          allowH2,
          rejectUnauthorized: false,
          // Passed on to tls.connect, as every option undici does not read itself.
          ...{ requestOCSP: true },
        }),
      ),
      seen,
    );
}

function openEndpoint(url: URL, pin: ResolvedAddress, endpoint: string, ctx: EndpointContext): KeptPool {
  const { limits, sizes, secureContexts } = ctx;
  /** The first handshake a connection set-up to the endpoint completed, refused certificate or not. */
  let first: TlsHandshake | null = null;
  const connector = connectorTo(pin, limits, secureContexts, (socket) => (first ??= describe(socket, pin.address)));
  let pool: Promise<Pool> | null = null;
  let h2: H2Connection | null = null;
  let discovery: Promise<void> | null = null;
  /** The connection that told HTTP/1.1 from HTTP/2, waiting to be the pool's first. */
  let spare: Socket | null = null;
  let connecting: Socket | null = null;
  let destroyed = false;

  const openPool = async (): Promise<Pool> => {
    const connectH1 = counting(await connector(false), kept);
    const opened = await http1Pool(url, limits, sizes, (params, callback) => {
      const socket = spare;
      spare = null;
      // Handed over on a later tick, as a new connection would be: undici does not expect it at once.
      if (socket && !socket.destroyed) return void process.nextTick(callback, null, socket);
      connectH1(params, callback);
    });
    opened.on('connect', () => (kept.connected = true));
    return opened;
  };
  const poolOf = (): Promise<Pool> => (pool ??= openPool());

  const discover = async (): Promise<void> => {
    // Closing the endpoint gives up a set-up in progress, which ends the requests waiting for it.
    const socket = await connectTo(await connector(true), url, (started) => (connecting = started));
    connecting = null;
    kept.connected = true;
    kept.opened++;
    if (destroyed) {
      socket.destroy();
      throw new NetError('aborted', 'the connections to this endpoint were closed while one was being set up');
    }
    if ((socket as TLSSocket).alpnProtocol !== 'h2') {
      kept.httpVersion = '1.1';
      ctx.multiplexed(url.origin, false);
      spare = socket;
      await poolOf();
      return;
    }
    kept.httpVersion = '2';
    ctx.multiplexed(url.origin, true);
    const connection = openH2Connection(url, socket, {
      maxHeaderBytes: limits.maxHeaderBytes,
      onGone: () => {
        if (h2 === connection) h2 = null;
      },
    });
    h2 = connection;
  };

  // The set-up of the connection that tells HTTP/1.1 from HTTP/2, shared by whoever waits for it.
  const discovered = (): Promise<void> =>
    (discovery ??= discover().finally(() => {
      discovery = null;
      ctx.discovered(url.origin);
    }));

  const kept: KeptPool = {
    endpoint,
    connected: false,
    httpVersion: '1.1',
    opened: 0,
    async request(req) {
      if (url.protocol === 'http:') return poolRequest(await poolOf(), req);
      // Requests that arrive while the first connection is being set up wait for it to say which protocol.
      while (!pool && !h2) await discovered();
      return h2 ? h2.request(req) : poolRequest(await poolOf(), req);
    },
    async handshake() {
      // A set-up describes its handshake before it refuses a certificate, and every one that succeeds has one.
      if (!first)
        await discovered().catch((err: unknown) => {
          if (!first) throw err;
        });
      return first!;
    },
    async destroy() {
      destroyed = true;
      // With an error: undici's connector answers only a set-up that failed, not one that was just closed.
      connecting?.destroy(new NetError('aborted', 'the scan is over: its connections are closed'));
      h2?.destroy();
      spare?.destroy();
      await pool?.then((opened) => opened.destroy()).catch(() => undefined);
    },
  };
  return kept;
}

export function createConnectionPools(
  limits: PoolLimits,
  sizes: PoolSizes,
  secureContexts: SecureContexts,
): ConnectionPools {
  const pools = new Map<string, KeptPool>();
  /** Every endpoint the scan opened, kept past close() for the scan's trace. */
  const opened: { origin: string; address: string; kept: KeptPool }[] = [];
  const multiplexedOrigins = new Set<string>();
  /**
   * HTTPS origins whose first connection set-up has ended (it told the protocol, or it failed and each request
   * then tries its own), and those whose first request is still setting it up (with the release of the others).
   */
  const knownOrigins = new Set<string>();
  const firsts = new Map<string, { ready: Promise<void>; release(): void }>();
  const settle = (origin: string): void => {
    firsts.get(origin)?.release();
    firsts.delete(origin);
  };
  const noTurn = { ready: Promise.resolve(), done: () => undefined };
  // An endpoint that let a connection set-up (TCP and TLS handshake) run out its time limit is a fact learnt
  // once per scan: later requests to it fail at once with the same error. A silent host would otherwise cost a
  // full limit per request, dozens in a full scan, and push the scan past its deadline.
  const silent = new Map<string, NetError>();
  let closed = false;

  return {
    get(url, pin) {
      if (closed) throw new NetError('aborted', 'the scan is over: its connections are closed');
      const endpoint = endpointOf(url, pin);
      const silence = silent.get(endpoint);
      if (silence) throw silence;
      const key = `${url.origin} ${endpoint}`;
      let kept = pools.get(key);
      if (!kept) {
        kept = openEndpoint(url, pin, endpoint, {
          ...{ limits, sizes, secureContexts },
          multiplexed: (origin, speaksH2) =>
            speaksH2 ? multiplexedOrigins.add(origin) : multiplexedOrigins.delete(origin),
          discovered(origin) {
            knownOrigins.add(origin);
            settle(origin);
          },
        });
        pools.set(key, kept);
        opened.push({ origin: url.origin, address: pin.address, kept });
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
        void other.destroy();
      }
    },
    multiplexed: (url) => multiplexedOrigins.has(url.origin),
    turn(url) {
      if (url.protocol !== 'https:' || knownOrigins.has(url.origin)) return noTurn;
      const first = firsts.get(url.origin);
      if (first) return { ready: first.ready, done: () => undefined };
      let release = (): void => undefined;
      const ready = new Promise<void>((resolve) => (release = resolve));
      firsts.set(url.origin, { ready, release });
      return { ready: Promise.resolve(), done: () => firsts.get(url.origin)?.ready === ready && settle(url.origin) };
    },
    silence: (url, pin) => silent.get(endpointOf(url, pin)),
    counts: () =>
      opened
        .filter(({ kept }) => kept.opened > 0)
        .map(({ origin, address, kept }) => ({
          origin,
          address,
          httpVersion: kept.httpVersion,
          connections: kept.opened,
        })),
    async close() {
      closed = true;
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((k) => k.destroy()));
    },
  };
}
