// Several sites on one address (the world's [::1], as name-based virtual hosting does on a real server): HTTPS
// connections go to the site named by the ClientHello's SNI, with that site's own TLS settings and certificate;
// plain HTTP requests to the site named by the Host header.
import http from 'node:http';
import net from 'node:net';
import { readClientHello } from './sni.ts';
import { KEEP_ALIVE_MS, type SiteHttpsServer } from './site-server.ts';

const HELLO_TIMEOUT_MS = 5000;
const MAX_HELLO_BYTES = 16 * 1024 + 5;

/** Who serves a host on this address (a Map, or a lookup over names made on demand). */
export interface HostTable<T> {
  get(host: string): T | undefined;
}

/** A listener that passes each TLS connection to the HTTPS server of the host in its SNI. */
export class SniFront extends net.Server {
  private readonly pending = new Set<net.Socket>();

  constructor(private readonly byHost: HostTable<SiteHttpsServer>) {
    super();
    this.on('connection', (socket) => this.route(socket));
  }

  private route(socket: net.Socket): void {
    this.pending.add(socket);
    let received = Buffer.alloc(0);
    const done = () => {
      this.pending.delete(socket);
      socket.off('data', onData);
      socket.setTimeout(0);
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const hello = readClientHello(received);
      if (hello.kind === 'incomplete' && received.length < MAX_HELLO_BYTES) return;
      done();
      const server =
        hello.kind === 'hello' && hello.serverName !== null ? this.byHost.get(hello.serverName) : undefined;
      // No name, or a name no site on this address serves: nothing to answer with, as at a real virtual host.
      if (!server) return void socket.destroy();
      socket.pause();
      socket.unshift(received);
      server.emit('connection', socket);
    };
    socket.on('data', onData);
    socket.on('error', () => socket.destroy());
    socket.setTimeout(HELLO_TIMEOUT_MS, () => socket.destroy());
  }

  /** Connections still being routed; those handed over belong to the site servers, which close their own. */
  closeAllConnections(): void {
    for (const socket of this.pending) socket.destroy();
    this.pending.clear();
  }
}

/** A plain-HTTP server that answers each request with the handler of the site its Host header names. */
export function createHostFront(byHost: HostTable<http.RequestListener>): http.Server {
  return http.createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const handler = byHost.get(host);
    if (handler) return void handler(req, res);
    res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`no site named ${host || '(no Host)'} on this address\n`);
  });
}
