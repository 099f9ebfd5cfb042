// Misbehaving web servers for the hostile-server tests: each listens on a site's loopback address at the
// world's probe ports and speaks raw HTTP/1.1 over plain TCP or TLS, so nothing in node:http softens what it
// sends. Every server counts its connections and keeps the open ones, so a test can prove that the scanner
// closed everything it opened and never reached a server it must not reach.
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import type { ServerCredentials } from '../world/ca.ts';

export type Scheme = 'http' | 'https';

/** The request line of one HTTP request, as the client sent it. */
export interface RequestHead {
  method: string;
  path: string;
}

/** What a server does with one request on an established (plain or TLS) connection. */
export type Behaviour = (socket: net.Socket, head: RequestHead, scheme: Scheme) => void;

export interface ServerStats {
  connections: number;
  requests: number;
  /** Response body bytes handed to the socket (flood and bomb servers). */
  bytesWritten: number;
}

/** How the HTTPS port of a site behaves below HTTP: a TLS server, or a raw TCP trick on the TLS port. */
export type HttpsMode = 'tls' | 'tcp-silent' | 'tls-stall';

export interface HostileSiteSpec {
  address: string;
  /** The behaviour, given the server's stats so it can count what it sends. */
  behaviour: (stats: ServerStats) => Behaviour;
  https: HttpsMode;
  /** Whether the plain-HTTP port is served (with the same behaviour). */
  http: boolean;
}

export interface HostileServer {
  stats: ServerStats;
  /** Connections accepted and not yet closed, on every port of the site. */
  readonly open: number;
  close(): Promise<void>;
}

const MAX_REQUEST_HEAD = 64 * 1024;
const CRLF = '\r\n';

/** Calls `tick` every `ms` until the socket closes. */
function every(socket: net.Socket, ms: number, tick: () => void): void {
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) clearInterval(timer);
    else tick();
  }, ms);
  socket.once('close', () => clearInterval(timer));
}

/** Writes chunks from `next` as fast as the peer reads them, until `next` returns null or the socket closes. */
function pump(socket: net.Socket, next: () => Buffer | null, stats: ServerStats): void {
  const write = (): void => {
    for (;;) {
      if (socket.destroyed || !socket.writable) return;
      const chunk = next();
      if (chunk === null) {
        socket.end();
        return;
      }
      stats.bytesWritten += chunk.length;
      if (!socket.write(chunk)) {
        socket.once('drain', write);
        return;
      }
    }
  };
  write();
}

/** Reads the request head and hands its request line to the behaviour; the rest of the bytes are ignored. */
function serveHttp(socket: net.Socket, scheme: Scheme, behaviour: Behaviour, stats: ServerStats): void {
  let buffered = '';
  const onData = (data: Buffer): void => {
    buffered += data.toString('latin1');
    if (buffered.length > MAX_REQUEST_HEAD) {
      socket.destroy();
      return;
    }
    if (!buffered.includes(CRLF + CRLF)) return;
    socket.off('data', onData);
    socket.on('data', () => undefined);
    const [method = '', path = '/'] = buffered.slice(0, buffered.indexOf(CRLF)).split(' ');
    stats.requests++;
    behaviour(socket, { method, path }, scheme);
  };
  socket.on('data', onData);
}

/** A TLS port that forwards only the first bytes of a real server's handshake, then stalls. */
function stallingFront(
  credentials: ServerCredentials,
  address: string,
  keepBytes: number,
): { server: net.Server; inner: tls.Server } {
  const inner = tls.createServer({ key: credentials.keyPem, cert: credentials.certPem });
  inner.on('tlsClientError', () => undefined);
  const server = net.createServer((client) => {
    const upstream = net.connect((inner.address() as AddressInfo).port, address);
    let forwarded = 0;
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d: Buffer) => {
      const room = keepBytes - forwarded;
      if (room > 0) client.write(d.subarray(0, room));
      forwarded += d.length;
    });
    const both = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', both);
    client.on('error', both);
    upstream.on('error', both);
  });
  return { server, inner };
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts one hostile site on its address: the HTTPS port always, the HTTP port when the spec asks. */
export async function startHostileSite(
  spec: HostileSiteSpec,
  ports: { http: number; https: number },
  credentials: ServerCredentials,
): Promise<HostileServer> {
  const stats: ServerStats = { connections: 0, requests: 0, bytesWritten: 0 };
  const behaviour = spec.behaviour(stats);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket): void => {
    stats.connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  };
  const servers: net.Server[] = [];

  if (spec.https === 'tls') {
    const server = tls.createServer({ key: credentials.keyPem, cert: credentials.certPem }, (socket) => {
      socket.on('error', () => undefined);
      serveHttp(socket, 'https', behaviour, stats);
    });
    server.on('connection', track);
    server.on('tlsClientError', () => undefined);
    servers.push(server);
    await listen(server, ports.https, spec.address);
  } else if (spec.https === 'tcp-silent') {
    // Reading (and dropping) what arrives is what lets the server notice the client hanging up.
    const server = net.createServer((socket) => socket.resume());
    server.on('connection', track);
    servers.push(server);
    await listen(server, ports.https, spec.address);
  } else {
    const { server, inner } = stallingFront(credentials, spec.address, 60);
    server.on('connection', track);
    servers.push(server, inner);
    await listen(inner, 0, spec.address);
    await listen(server, ports.https, spec.address);
  }
  if (spec.http) {
    const server = net.createServer((socket) => serveHttp(socket, 'http', behaviour, stats));
    server.on('connection', track);
    servers.push(server);
    await listen(server, ports.http, spec.address);
  }

  return serverHandle(stats, sockets, servers);
}

/** A server that counts every connection on its ports and answers nothing: what must never be reached. */
export async function startForbiddenServer(address: string, ports: number[]): Promise<HostileServer> {
  const stats: ServerStats = { connections: 0, requests: 0, bytesWritten: 0 };
  const sockets = new Set<net.Socket>();
  const servers = ports.map(() =>
    net.createServer((socket) => {
      stats.connections++;
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
      socket.once('data', () => stats.requests++);
    }),
  );
  await Promise.all(servers.map((s, i) => listen(s, ports[i]!, address)));
  return serverHandle(stats, sockets, servers);
}

/** The handle a test holds on its servers: what they counted, what is still open, and how to stop them. */
function serverHandle(stats: ServerStats, sockets: Set<net.Socket>, servers: net.Server[]): HostileServer {
  return {
    stats,
    get open() {
      return sockets.size;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))),
      );
    },
  };
}

const statusLine = (code: number, reason: string): string => `HTTP/1.1 ${code} ${reason}${CRLF}`;

/** Accepts the request and never answers. */
export const silent: Behaviour = () => undefined;

/** A status line, then one byte of a header value per second, never finishing the header. */
export const trickleHeaders =
  (stats: ServerStats): Behaviour =>
  (socket) => {
    socket.write(`${statusLine(200, 'OK')}X-Slow: `);
    every(socket, 1000, () => {
      stats.bytesWritten++;
      socket.write('a');
    });
  };

/** Complete headers announcing a gigabyte, then one body byte per second. */
export const trickleBody =
  (stats: ServerStats): Behaviour =>
  (socket) => {
    socket.write(`${statusLine(200, 'OK')}Content-Type: text/plain${CRLF}Content-Length: 1073741824${CRLF}${CRLF}`);
    every(socket, 1000, () => {
      stats.bytesWritten++;
      socket.write('a');
    });
  };

/** Header lines, each a kilobyte, for as long as the client reads them. */
export const endlessHeaders =
  (stats: ServerStats): Behaviour =>
  (socket) => {
    let n = 0;
    socket.write(statusLine(200, 'OK'));
    pump(socket, () => Buffer.from(`X-Flood-${n++}: ${'f'.repeat(1000)}${CRLF}`), stats);
  };

const FLOOD_CHUNK = Buffer.alloc(64 * 1024, 'A');

/** A close-delimited body of `totalBytes`, sent as fast as the client reads. */
export const floodBody =
  (stats: ServerStats, totalBytes: number): Behaviour =>
  (socket) => {
    let sent = 0;
    socket.write(`${statusLine(200, 'OK')}Content-Type: text/html${CRLF}Connection: close${CRLF}${CRLF}`);
    pump(
      socket,
      () => {
        if (sent >= totalBytes) return null;
        sent += FLOOD_CHUNK.length;
        return FLOOD_CHUNK;
      },
      stats,
    );
  };

/**
 * One gzip member holding `decodedBytes` of newlines: about a thousandth of that on the wire. Members
 * concatenated form one valid gzip stream (RFC 1952 section 2.2), so repeating it multiplies both sizes.
 */
export function gzipBombMember(decodedBytes: number): Buffer {
  return gzipSync(Buffer.alloc(decodedBytes, '\n'), { level: 9 });
}

/**
 * A gzip body of `members` repetitions of `member`, after a first member holding `prefix` (so robots.txt can
 * still name a sitemap). Served with Content-Encoding gzip, except on .gz paths, where it is the file itself.
 */
export const gzipBomb =
  (stats: ServerStats, member: Buffer, members: number, prefix: (scheme: Scheme) => string): Behaviour =>
  (socket, head, scheme) => {
    const asFile = head.path.split('?')[0]!.endsWith('.gz');
    const encoding = asFile
      ? `Content-Type: application/gzip${CRLF}`
      : `Content-Type: text/plain${CRLF}Content-Encoding: gzip${CRLF}`;
    socket.write(`${statusLine(200, 'OK')}${encoding}Connection: close${CRLF}${CRLF}`);
    let left = members;
    let first: Buffer | null = gzipSync(prefix(scheme));
    pump(
      socket,
      () => {
        if (first) {
          const out = first;
          first = null;
          return out;
        }
        return left-- > 0 ? member : null;
      },
      stats,
    );
  };

/** A redirect to the Location `next` gives for this request; the connection closes after it. */
export const redirect =
  (next: (head: RequestHead, scheme: Scheme) => string): Behaviour =>
  (socket, head, scheme) => {
    socket.end(
      `${statusLine(302, 'Found')}Location: ${next(head, scheme)}${CRLF}Content-Length: 0${CRLF}Connection: close${CRLF}${CRLF}`,
    );
  };

/** A small, ordinary 200 page. */
export const plain: Behaviour = (socket) => {
  const body = '<!doctype html><title>ok</title><p>ok</p>';
  socket.end(
    `${statusLine(200, 'OK')}Content-Type: text/html${CRLF}Content-Length: ${body.length}${CRLF}Connection: close${CRLF}${CRLF}${body}`,
  );
};
