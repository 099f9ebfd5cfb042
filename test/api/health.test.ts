// Readiness answers 503 with the reason whenever the service should not get traffic (draining, ledger down).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/http/app.ts';
import { healthRoutes } from '../../src/api/rest/health-routes.ts';
import { createLogger } from '../../src/lib/log.ts';

async function get(problem: string | null, pathname: string): Promise<{ status: number; body: unknown }> {
  const app = createApp({
    baseUrl: 'https://dvs.example.net',
    trustProxy: null,
    log: createLogger({ logLevel: 'silent' }),
    routers: [healthRoutes({ problem: async () => problem })],
  });
  const handle = app.callback();
  // Koa answers every error itself (ctx.onerror), so the listener lets its promise go.
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${pathname}`);
    return { status: res.status, body: await res.json() };
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('health and readiness', () => {
  it('is not ready while a problem stands, and says which', async () => {
    expect(await get('shutting down', '/readyz')).toEqual({
      status: 503,
      body: { status: 'not_ready', error: 'shutting down' },
    });
    expect(await get(null, '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('stays alive whatever readiness says', async () => {
    expect(await get('the payment ledger does not answer: down', '/healthz')).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
  });
});
