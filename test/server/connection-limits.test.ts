// Issue 31 item 1: clients that pipeline requests and never read the answers. 25 connections each send 100
// pipelined requests for the largest page and read nothing; the service, in a process of its own, must stay
// within 50 MiB of its idle RSS and close every one of those connections once its output does not drain.
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, startServiceProcess, type ServiceProcess } from './memory-process.ts';

const CONNECTIONS = 25;
const PIPELINED = 100;
const DRAIN_MS = 1500;
const BOUND = 50 * MiB;

let svc: ServiceProcess;

beforeAll(async () => {
  svc = await startServiceProcess({ DVS_CLIENT_DRAIN_TIMEOUT_MS: String(DRAIN_MS) });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
});

/** A TLS connection to the service that writes `bytes` and never reads. */
function silentReader(bytes: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: svc.port, ca: svc.caPem, servername: 'localhost' }, () => {
      socket.write(bytes);
      resolve(socket);
    });
    socket.pause();
    socket.once('error', reject);
  });
}

/**
 * One request read to its end, as a browser would: the page is rendered, and kept, before idle is measured. The
 * request is written, not followed by `socket.end()`: on a TLS socket that sends close_notify, and OpenSSL (the
 * client's) refuses the application data that follows its own close_notify, so the answer was cut short and the
 * connection reset (8 of 10 runs on 2026-11-29). A TCP half-close gets the answer whole (half-close.test.ts).
 */
function fetchPage(request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: svc.port, ca: svc.caPem, servername: 'localhost' }, () =>
      socket.write(request),
    );
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('end', () => resolve(bytes));
    socket.on('error', reject);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a client that pipelines requests and never reads', () => {
  it('costs the service less than 50 MiB, and its connections are closed', async () => {
    const page = 'GET /docs/rules HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\n';
    // Large enough that the pipelined answers, were they buffered, would cost about a gigabyte.
    expect(await fetchPage(`${page}Connection: close\r\n\r\n`)).toBeGreaterThan(400_000);
    const idle = await svc.idle();

    const sockets = await Promise.all(
      Array.from({ length: CONNECTIONS }, () => silentReader(`${page}\r\n`.repeat(PIPELINED))),
    );
    // Until every connection is gone, or the service is past the bound (then the test fails at once: before the
    // fix it went on to 1.7 GB, which a shared test machine need not see).
    let sample = await svc.sample();
    while (sample.sockets > idle.sockets && sample.peak - idle.rss <= BOUND) {
      await pause(100);
      sample = await svc.sample();
    }
    for (const socket of sockets) socket.destroy();

    expect((sample.peak - idle.rss) / MiB, 'MiB above idle').toBeLessThanOrEqual(BOUND / MiB);
    expect(sample.sockets, 'open sockets, the listener and IPC included').toBe(idle.sockets);
  }, 60_000);

  it('is still answered in order when it pipelines a few requests and reads', async () => {
    const request = (path: string, last = false) =>
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: svc.port, ca: svc.caPem, servername: 'localhost' }, () =>
        socket.write(request('/healthz') + request('/docs/api.md') + request('/readyz', true)),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
    });
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
    expect(statuses).toEqual(['200', '200', '200']);
    expect(text.indexOf('"status":"ok"')).toBeLessThan(text.indexOf('# '));
    expect(text.indexOf('# ')).toBeLessThan(text.indexOf('"status":"ready"'));
  }, 30_000);
});
