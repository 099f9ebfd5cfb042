import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import tls from 'node:tls';
import { once } from 'node:events';
import { createNet } from '../../src/net/index.ts';
import { NetError } from '../../src/net/types.ts';
import {
  startDnsServer,
  startRawServer,
  makeTestCa,
  zone,
  a,
  testConfig,
  type DnsServer,
  type LocalServer,
  type TestCa,
} from './local-servers.ts';

let dns: DnsServer;
let ca: TestCa;
let tlsServer: tls.Server;
let tlsPort: number;
let echo: LocalServer;

const config = (env: Record<string, string> = {}) =>
  testConfig({ DVS_DNS_SERVERS: dns.server, DVS_ALLOW_NETWORKS: '127.0.0.2/32', DVS_EXTRA_CA: ca.caFile, ...env });

beforeAll(async () => {
  ca = await makeTestCa();
  const { cert, key } = await ca.issue(['secure.test']);
  // The server tells each client which SNI name it received.
  tlsServer = tls.createServer({ cert, key, minVersion: 'TLSv1.2', ALPNProtocols: ['http/1.1'] }, (socket) =>
    socket.end(`sni=${String((socket as tls.TLSSocket & { servername: string | false }).servername)}`),
  );
  // A stand-in staple: the client must hand back exactly the bytes the server stapled.
  tlsServer.on('OCSPRequest', (_cert: Buffer, _issuer: Buffer, done: (err: Error | null, response?: Buffer) => void) =>
    done(null, Buffer.from('stapled-ocsp')),
  );
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.2', resolve));
  tlsPort = (tlsServer.address() as import('node:net').AddressInfo).port;
  echo = await startRawServer('127.0.0.2', (socket) => socket.pipe(socket));
  dns = await startDnsServer(
    zone({
      'secure.test|A': [a('secure.test', '127.0.0.2')],
      'secure.test|AAAA': [],
      'other.test|A': [a('other.test', '127.0.0.2')],
      'other.test|AAAA': [],
      'inside.test|A': [a('inside.test', '10.0.0.1')],
      'inside.test|AAAA': [],
    }),
  );
});
afterAll(async () => {
  await new Promise((resolve) => tlsServer.close(resolve));
  await echo.close();
  await dns.close();
});

describe('tls()', () => {
  it('hands back a live, authorized socket pinned to the checked address', async () => {
    const conn = await createNet(config()).tls('secure.test', { port: tlsPort, ALPNProtocols: ['http/1.1'] });
    try {
      expect(conn).toMatchObject({
        address: '127.0.0.2',
        authorized: true,
        authorizationError: null,
        ocspResponse: null,
      });
      expect(conn.socket.getProtocol()).toMatch(/^TLSv1\.[23]$/);
      expect(conn.socket.alpnProtocol).toBe('http/1.1');
      const [greeting] = (await once(conn.socket, 'data')) as [Buffer];
      expect(String(greeting)).toBe('sni=secure.test');
    } finally {
      conn.socket.destroy();
    }
  });

  it('captures a stapled OCSP response when asked for one', async () => {
    const net = createNet(config());
    const asked = await net.tls('secure.test', { port: tlsPort, requestOCSP: true });
    asked.socket.destroy();
    expect(asked.ocspResponse?.toString()).toBe('stapled-ocsp');
    const notAsked = await net.tls('secure.test', { port: tlsPort });
    notAsked.socket.destroy();
    expect(notAsked.ocspResponse).toBeNull();
  });

  it('completes the handshake with an untrusted or misnamed certificate and says why it is not authorized', async () => {
    const misnamed = await createNet(config()).tls('other.test', { port: tlsPort });
    misnamed.socket.destroy();
    expect([misnamed.authorized, misnamed.authorizationError]).toEqual([false, 'ERR_TLS_CERT_ALTNAME_INVALID']);
    const untrusted = await createNet(config({ DVS_EXTRA_CA: '' })).tls('secure.test', { port: tlsPort });
    untrusted.socket.destroy();
    expect(untrusted.authorized).toBe(false);
    expect(untrusted.authorizationError).toMatch(/UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE)/);
  });

  it('makes a handshake that only asks what the server accepts without the trust store, and verifies the others', async () => {
    const net = createNet(config());
    const options = { port: tlsPort, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' } as const;
    const unverified = await net.tls('secure.test', { ...options, verify: false });
    expect(unverified.socket.getProtocol()).toBe('TLSv1.2');
    unverified.socket.destroy();
    expect([unverified.authorized, unverified.authorizationError]).toEqual([false, 'NOT_VERIFIED']);
    // Trusting nothing, not a store without the test CA: the socket itself could not verify the chain either.
    expect(String(unverified.socket.authorizationError)).toMatch(/UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE)/);
    // The same versions with verification are another context, which trusts the scan's store.
    const verified = await net.tls('secure.test', options);
    verified.socket.destroy();
    expect([verified.authorized, verified.authorizationError]).toEqual([true, null]);
  });

  it('sends no SNI when told, yet checks the name against the host', async () => {
    const conn = await createNet(config()).tls('secure.test', { port: tlsPort, servername: false });
    const [greeting] = (await once(conn.socket, 'data')) as [Buffer];
    conn.socket.destroy();
    expect(String(greeting)).toBe('sni=false');
    expect(conn.authorized).toBe(true);
  });

  it('refuses hosts outside the policy and reports version mismatches as tls_error', async () => {
    const net = createNet(config());
    await expect(net.tls('inside.test', { port: tlsPort })).rejects.toMatchObject({ code: 'policy_refused' });
    await expect(net.tls('127.0.0.3', { port: tlsPort })).rejects.toMatchObject({ code: 'policy_refused' });
    const old = await net
      .tls('secure.test', { port: tlsPort, maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })
      .catch((e: unknown) => e);
    expect(old).toBeInstanceOf(NetError);
    expect((old as NetError).code).toBe('tls_error');
  });

  it('times out a handshake the server never answers', async () => {
    const silent = await startRawServer('127.0.0.2', () => undefined);
    try {
      const err = await createNet(config({ DVS_REQUEST_TIMEOUT_MS: '500' }))
        .tls('secure.test', { port: silent.port })
        .catch((e: unknown) => e);
      expect((err as NetError).code).toBe('timeout');
    } finally {
      await silent.close();
    }
  });

  it('fails later handshakes to a silent endpoint at once, for the rest of the scan', async () => {
    // Issue 31 item 7: the TLS probe's handshakes each waited out the time limit, a few at a time, and a scan of
    // a host that never answers held its slot until the scan's deadline.
    let connections = 0;
    const silent = await startRawServer('127.0.0.2', () => void connections++);
    try {
      const net = createNet(config({ DVS_REQUEST_TIMEOUT_MS: '300' }));
      const attempts: unknown[] = [];
      // One after another: the first finds the endpoint silent, the others are told so.
      for (let i = 0; i < 4; i++)
        attempts.push(await net.tls('secure.test', { port: silent.port }).catch((e: unknown) => e));
      expect(attempts.map((e) => (e as NetError).code)).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
      expect(connections).toBe(1);
      // Another endpoint of the host is not silent, and the next scan asks afresh.
      const conn = await net.tls('secure.test', { port: tlsPort });
      conn.socket.destroy();
      await createNet(config({ DVS_REQUEST_TIMEOUT_MS: '300' }))
        .tls('secure.test', { port: silent.port })
        .catch(() => undefined);
      expect(connections).toBe(2);
    } finally {
      await silent.close();
    }
  });
});

describe('tcp()', () => {
  it('connects to the checked address and hands the socket over', async () => {
    const socket = await createNet(config()).tcp('secure.test', echo.port);
    try {
      socket.write('ping');
      const [reply] = (await once(socket, 'data')) as [Buffer];
      expect(String(reply)).toBe('ping');
      expect(socket.remoteAddress).toBe('127.0.0.2');
    } finally {
      socket.destroy();
    }
  });

  it('reports refusals and closed ports precisely', async () => {
    const net = createNet(config());
    await expect(net.tcp('inside.test', echo.port)).rejects.toMatchObject({ code: 'policy_refused' });
    const closed = await startRawServer('127.0.0.2', () => undefined);
    await closed.close();
    await expect(net.tcp('secure.test', closed.port)).rejects.toMatchObject({ code: 'connect_refused' });
  });
});
