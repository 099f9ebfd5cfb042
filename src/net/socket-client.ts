// Raw TLS handshakes and TCP connections to scanned hosts, pinned to a policy-checked address. The handshake
// never fails on a bad certificate: whether the chain and name validate is reported instead, computed against
// the same trust store that HTTP requests use, because the TLS probe's job is to describe the certificate.
import net, { type Socket } from 'node:net';
import tls, { type PeerCertificate } from 'node:tls';
import type { NetLimits } from '../lib/config.ts';
import type { NetError, ResolvedAddress, TlsConnectOptions, TlsConnection } from './types.ts';
import { classifyHost } from './address-policy.ts';
import type { Resolver } from './resolver.ts';
import type { Semaphore } from './semaphore.ts';
import { createDeadline, type Deadline } from './deadline.ts';
import { toNetError } from './errors.ts';
import { secureContexts } from './secure-contexts.ts';
import type { RequestTrace, TraceKind } from './request-trace.ts';

export interface SocketClientDeps {
  resolver: Resolver;
  semaphore: Semaphore;
  /** Bare handshakes at once: fewer than the scan's slots, so HTTP requests always find one free. */
  handshakes: Semaphore;
  limits: NetLimits;
  ca: readonly string[];
  httpsPort: number;
  /** Records each connection set-up, from when its slot is held and its address known (the bench's trace). */
  trace?: RequestTrace | null;
}

export interface SocketClients {
  tls(host: string, opts?: TlsConnectOptions): Promise<TlsConnection>;
  tcp(host: string, port: number, opts?: { signal?: AbortSignal; address?: ResolvedAddress }): Promise<Socket>;
}

/**
 * Runs one connection attempt under the deadline and a concurrency slot. The slot is held for the connect
 * and handshake only: the caller owns the open socket afterwards, and a forgotten socket must not starve the
 * rest of the scan. Once handed over, a socket that stays idle past the request time limit is closed.
 */
async function connectPinned<S extends Socket>(
  deps: SocketClientDeps,
  host: string,
  opts: { signal?: AbortSignal; address?: ResolvedAddress; port: number },
  traceAs: { kind: TraceKind; target: string },
  open: (pin: ResolvedAddress, deadline: Deadline) => Promise<S>,
  silent: Map<string, NetError>,
): Promise<S> {
  const asked = deps.trace?.ask();
  // The time limit starts once a slot is free: waiting behind the scan's own connections is not the host's delay.
  const releaseTurn = await deps.handshakes.acquire(opts.signal);
  let release: () => void;
  try {
    release = await deps.semaphore.acquire(opts.signal);
  } catch (err) {
    releaseTurn();
    throw err;
  }
  const deadline = createDeadline(deps.limits.requestTimeoutMs, opts.signal);
  let end: ((ok: boolean) => number) | undefined;
  let endpoint: string | undefined;
  try {
    const pin = opts.address
      ? deps.resolver.checkAddress(opts.address)
      : (await deps.resolver.resolve(host, { signal: deadline.signal }))[0]!;
    endpoint = `[${pin.address}]:${opts.port}`;
    const silence = silent.get(endpoint);
    if (silence) throw silence;
    // Traced from here: the wait for a slot is the scan's own queue, the lookup is the DNS query's entry.
    end = deps.trace?.begin(traceAs.kind, traceAs.target, { asked, ...(opts.address ? {} : { host }) });
    const socket = await open(pin, deadline);
    end?.(true);
    end = undefined;
    socket.setTimeout(deps.limits.requestTimeoutMs, () => socket.destroy());
    // The caller may add its own listener; this one keeps a late reset from crashing the process.
    socket.on('error', () => undefined);
    return socket;
  } catch (err) {
    end?.(false);
    if (!deadline.signal.aborted) throw toNetError(err, `${host}`);
    const failure = deadline.failure();
    if (failure.code === 'timeout' && endpoint !== undefined) silent.set(endpoint, failure);
    throw failure;
  } finally {
    deadline.clear();
    release();
    releaseTurn();
  }
}

/** Settles when `socket` emits `readyEvent`; destroys it on error or when the deadline fires. */
function whenReady<S extends Socket>(socket: S, readyEvent: string, deadline: Deadline): Promise<S> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      deadline.signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off(readyEvent, onReady);
    };
    const onReady = (): void => {
      cleanup();
      resolve(socket);
    };
    const onError = (err: Error): void => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const onAbort = (): void => onError(deadline.failure());
    socket.once(readyEvent, onReady);
    socket.once('error', onError);
    if (deadline.signal.aborted) onAbort();
    else deadline.signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createSocketClients(deps: SocketClientDeps): SocketClients {
  const contexts = secureContexts(deps.ca);
  // An endpoint (address and port) that did not complete a connection within the time limit is silent for the
  // rest of the scan, as in connection-pools.ts: the TLS probe's next handshakes to it fail at once with the same
  // error instead of each waiting out the limit, which kept a scan of a silent host in its slot until its
  // deadline (issue 31 item 7).
  const silent = new Map<string, NetError>();
  return {
    async tls(host, opts = {}) {
      const literal = classifyHost(host).kind === 'ip';
      const identity = typeof opts.servername === 'string' ? opts.servername : host;
      const servername = opts.servername === false || (opts.servername === undefined && literal) ? undefined : identity;
      let ocspResponse: Buffer | null = null;
      let handshakeMs = 0;
      let address = '';
      const port = opts.port ?? deps.httpsPort;
      const target = `${host}:${port} ${opts.minVersion ?? ''}-${opts.maxVersion ?? ''}`;
      const socket = await connectPinned(
        deps,
        host,
        { ...opts, port },
        { kind: 'tls', target },
        (pin, deadline) => {
          address = pin.address;
          const started = performance.now();
          const options: tls.ConnectionOptions & { requestOCSP?: boolean } = {
            host: pin.address,
            port,
            servername,
            secureContext: contexts.get(opts),
            rejectUnauthorized: false,
            checkServerIdentity: (_name: string, cert: PeerCertificate) => tls.checkServerIdentity(identity, cert),
            ALPNProtocols: opts.ALPNProtocols,
            requestOCSP: opts.requestOCSP,
          };
          const s = tls.connect(options);
          s.once('OCSPResponse', (response: Buffer) => {
            ocspResponse = response;
          });
          return whenReady(s, 'secureConnect', deadline).then((ready) => {
            handshakeMs = Math.round(performance.now() - started);
            return ready;
          });
        },
        silent,
      );
      if (opts.verify === false)
        return { socket, address, authorized: false, authorizationError: 'NOT_VERIFIED', ocspResponse, handshakeMs };
      const authorizationError = socket.authorizationError as unknown as string | Error | undefined | null;
      return {
        socket,
        address,
        authorized: socket.authorized,
        authorizationError: authorizationError
          ? String((authorizationError as { code?: string }).code ?? authorizationError)
          : null,
        ocspResponse,
        handshakeMs,
      };
    },

    tcp(host, port, opts = {}) {
      return connectPinned(
        deps,
        host,
        { ...opts, port },
        { kind: 'tcp', target: `${host}:${port}` },
        (pin, deadline) => whenReady(net.connect({ host: pin.address, port }), 'connect', deadline),
        silent,
      );
    },
  };
}
