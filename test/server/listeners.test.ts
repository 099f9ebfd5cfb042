// The listeners themselves, as a hostile client meets them: the metrics listener stays on its own (loopback by
// default) address, and slow clients are cut off after the TLS handshake, header and body time limits.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
