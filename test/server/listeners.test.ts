// The listeners themselves, as a hostile client meets them: the metrics listener stays on its own (loopback by
// default) address, and slow clients are cut off after the TLS handshake, header and body time limits.
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { startApiWorld, startTestService, type TestService } from './harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;

beforeAll(async () => {
  world = await startApiWorld();
});

afterAll(async () => {
  await world?.stop();
  world?.removeSites();
});

async function withService<T>(env: Record<string, string>, run: (svc: TestService) => Promise<T>): Promise<T> {
  const svc = await startTestService({ ...world.env, ...env });
  try {
    return await run(svc);
  } finally {
    await svc.stop();
  }
}

/** The status of GET /metrics at host:port, or the connection error's code. */
function metricsAt(host: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    http
      .get({ host, port, path: '/metrics' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('the metrics listener', () => {
  it('binds 127.0.0.1 by default, whatever DVS_HOST is', async () => {
    await withService({ DVS_HOST: '0.0.0.0', DVS_METRICS_PORT: '0' }, async (svc) => {
      expect(svc.config.listen.metricsHost).toBe('127.0.0.1');
      expect(await metricsAt('127.0.0.1', svc.service.metricsPort!)).toBe(200);
      // 127.0.0.2 is loopback too, but not the address the listener was given.
      expect(await metricsAt('127.0.0.2', svc.service.metricsPort!)).toBe('ECONNREFUSED');
    });
  });

  it('binds DVS_METRICS_HOST when it is set', async () => {
    await withService({ DVS_METRICS_HOST: '127.0.0.2', DVS_METRICS_PORT: '0' }, async (svc) => {
      expect(await metricsAt('127.0.0.2', svc.service.metricsPort!)).toBe(200);
      expect(await metricsAt('127.0.0.1', svc.service.metricsPort!)).toBe('ECONNREFUSED');
    });
  });
});

interface Cut {
  /** Milliseconds from the connection to the server closing it, or null if it was still open at the cap. */
  ms: number | null;
  /** What the server wrote before closing. */
  text: string;
}

const CAP_MS = 8_000;

/** Connects, sends `send` (after the handshake when `tlsOn`), then waits for the server to close, up to CAP_MS. */
function holdOpen(port: number, tlsOn: boolean, send = ''): Promise<Cut> {
  return new Promise((resolve) => {
    const started = Date.now();
    let text = '';
    const socket: net.Socket = tlsOn
      ? tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
          if (send) socket.write(send);
        })
      : net.connect({ host: '127.0.0.1', port });
    const cap = setTimeout(() => {
      socket.destroy();
      resolve({ ms: null, text });
    }, CAP_MS);
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(cap);
      resolve({ ms: Date.now() - started, text });
    });
  });
}

describe('slow clients', () => {
  const limits = {
    DVS_CLIENT_HANDSHAKE_TIMEOUT_MS: '1000',
    DVS_CLIENT_HEADERS_TIMEOUT_MS: '1000',
    DVS_CLIENT_BODY_TIMEOUT_MS: '1500',
  };

  it('has the defaults of about 10 s, 10 s and 30 s', () => {
    expect(loadConfig({}).clientTimeouts).toEqual({ handshakeMs: 10_000, headersMs: 10_000, bodyMs: 30_000 });
  });

  it('cuts off a client that never starts the TLS handshake', async () => {
    await withService(limits, async (svc) => {
      const cut = await holdOpen(svc.service.port, false);
      expect(cut.ms).not.toBeNull();
      expect(cut.ms!).toBeGreaterThanOrEqual(900);
    });
  });

  it('answers 408 and closes when the headers do not arrive in time', async () => {
    await withService(limits, async (svc) => {
      const cut = await holdOpen(svc.service.port, true, 'POST /api/quickscan HTTP/1.1\r\nHost: localhost\r\n');
      expect(cut.ms).not.toBeNull();
      expect(cut.ms!).toBeGreaterThanOrEqual(900);
      expect(cut.text).toMatch(/^HTTP\/1\.1 408/);
    });
  });

  it('answers 408 and closes when the body does not arrive in time', async () => {
    await withService(limits, async (svc) => {
      const head =
        'POST /api/quickscan HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
      const cut = await holdOpen(svc.service.port, true, head + '{"domain":');
      expect(cut.ms).not.toBeNull();
      // The headers arrived at once, so the body had its own time too.
      expect(cut.ms!).toBeGreaterThanOrEqual(1400);
      expect(cut.text).toMatch(/^HTTP\/1\.1 408/);
    });
  });

  it('still serves a slow response: only the request is bounded', async () => {
    await withService(
      { ...limits, DVS_CLIENT_BODY_TIMEOUT_MS: '100', DVS_CLIENT_HEADERS_TIMEOUT_MS: '100' },
      async (svc) => {
        const res = await svc.post('/api/quickscan', { domain: 'good.test' });
        expect(res.status).toBe(200);
      },
    );
  });
});

describe('rate limits behind a proxy', () => {
  it('keys the limit on the address the proxy saw, not on what the client wrote to the left', async () => {
    await withService({ DVS_TRUST_PROXY: '1', DVS_QUICK_RATE_LIMIT: '3' }, async (svc) => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        // The client writes a new address each time; the proxy appends the one it really saw.
        const headers = { 'x-forwarded-for': `10.0.0.${i}, 203.0.113.7`, 'x-forwarded-proto': 'https' };
        statuses.push((await svc.post('/api/quickscan', { domain: `host${i}.nxdomain.test` }, headers)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      // Another client behind the same proxy has its own budget.
      const other = { 'x-forwarded-for': '198.51.100.9' };
      expect((await svc.post('/api/quickscan', { domain: 'host9.nxdomain.test' }, other)).status).toBe(200);
    });
  });
});
