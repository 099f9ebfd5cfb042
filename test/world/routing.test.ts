import { describe, it, expect } from 'vitest';
import net from 'node:net';
import tls from 'node:tls';
import { preferredIndex } from './negotiate.ts';
import { readClientHello } from './sni.ts';

describe('preferredIndex (Accept negotiation)', () => {
  const offered = ['text/html', 'text/markdown', 'text/plain'];

  it('gives the default without an Accept header or when nothing is acceptable', () => {
    expect(preferredIndex(undefined, offered)).toBe(0);
    expect(preferredIndex('  ', offered)).toBe(0);
    expect(preferredIndex('image/png', offered)).toBe(0);
  });

  it('takes the highest quality, ties going to the earlier offer', () => {
    expect(preferredIndex('text/markdown', offered)).toBe(1);
    expect(preferredIndex('*/*', offered)).toBe(0);
    expect(preferredIndex('text/*', offered)).toBe(0);
    expect(preferredIndex('text/markdown;q=0.4, text/plain;q=0.5', offered)).toBe(2);
    expect(preferredIndex('text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', offered)).toBe(0);
  });

  it('lets the most specific range decide, so text/html;q=0 excludes HTML even under */*', () => {
    expect(preferredIndex('text/html;q=0, */*', offered)).toBe(1);
    expect(preferredIndex('TEXT/Markdown; Q=1, text/*;q=0.1', offered)).toBe(1);
  });

  it('reads a malformed quality as 0 and skips ranges without a subtype', () => {
    expect(preferredIndex('text/markdown;q=high, text', offered)).toBe(0);
  });
});

/** The first bytes a real TLS client sends to a server, for the given server name (none for an IP). */
function captureClientHello(servername: string | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      socket.once('data', (data) => {
        socket.destroy();
        server.close();
        resolve(data);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      const client = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false });
      client.on('error', () => undefined);
    });
    server.on('error', reject);
  });
}

describe('readClientHello', () => {
  it('reads the server name of a real ClientHello', async () => {
    const hello = await captureClientHello('WWW.Example.test');
    expect(readClientHello(hello)).toEqual({ kind: 'hello', serverName: 'www.example.test' });
  });

  it('answers incomplete until the whole first record is there', async () => {
    const hello = await captureClientHello('example.test');
    expect(readClientHello(hello.subarray(0, 3))).toEqual({ kind: 'incomplete' });
    expect(readClientHello(hello.subarray(0, hello.length - 1))).toEqual({ kind: 'incomplete' });
  });

  it('gives no name for a ClientHello without SNI, and not-tls for anything else', async () => {
    expect(readClientHello(await captureClientHello(''))).toEqual({ kind: 'hello', serverName: null });
    expect(readClientHello(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))).toEqual({ kind: 'not-tls' });
  });
});
