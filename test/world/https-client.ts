// A node:https/http client for the world's own tests: connects to a site's loopback address while sending the
// site's name as SNI and Host, the way a pinned client does.
import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { DetailedPeerCertificate } from 'node:tls';

export interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  peer: DetailedPeerCertificate | null;
  protocol: string | null;
}

export interface FetchOptions {
  scheme?: 'http' | 'https';
  address: string;
  port: number;
  host: string;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  /** Request body (sent with Content-Length). */
  body?: string;
  ca?: string;
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  ciphers?: string;
  /** Stop reading after this many body bytes. */
  maxBytes?: number;
  timeoutMs?: number;
}

export function fetchSite(opts: FetchOptions): Promise<Fetched> {
  const lib = opts.scheme === 'http' ? http : https;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      {
        host: opts.address,
        port: opts.port,
        path: opts.path ?? '/',
        method: opts.method ?? 'GET',
        servername: opts.host,
        headers: { host: opts.host, ...opts.headers },
        ca: opts.ca,
        minVersion: opts.minVersion,
        maxVersion: opts.maxVersion,
        ciphers: opts.ciphers,
        agent: false,
        timeout: opts.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const socket = res.socket as TLSSocket;
        const tls = typeof socket.getPeerCertificate === 'function';
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            peer: tls ? socket.getPeerCertificate(true) : null,
            protocol: tls ? socket.getProtocol() : null,
          });
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
          if (opts.maxBytes !== undefined && size >= opts.maxBytes) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end(opts.body);
  });
}
