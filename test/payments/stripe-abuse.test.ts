// Issue 13 item 13: forged Stripe webhooks cannot flood the log (one warning per interval, with a count of the
// rest), and a Stripe API that cannot be reached is a 503 with a clear message on the checkout, not a 500.
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { throttledWarning } from '../../src/api/http/throttled-warning.ts';
import { createLogger } from '../../src/lib/log.ts';
import { startCheckoutApp, type CheckoutApp } from './checkout-app.ts';

const STRIPE = { DVS_STRIPE_SECRET_KEY: 'sk_test_offline_abuse', DVS_STRIPE_WEBHOOK_SECRET: 'whsec_offline_abuse' };

/** A log destination that keeps each JSON line. */
function logLines(): { stream: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let app: CheckoutApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('forged webhooks', () => {
  it('log one warning for a flood of 100, not one each', async () => {
    const log = logLines();
    app = await startCheckoutApp({ ...STRIPE, DVS_LOG_LEVEL: 'warn' }, log.stream);
    for (let i = 0; i < 100; i++) {
      const res = await app.call('POST', '/checkout/webhook', {
        body: '{"id":"evt_forged","type":"checkout.session.completed"}',
        headers: { 'content-type': 'application/json', 'stripe-signature': `t=1,v1=${'0'.repeat(64)}` },
      });
      expect(res.status).toBe(400);
    }
    const warnings = log.lines.filter((l) => l.msg === 'webhook refused: signature did not verify');
    expect(warnings).toHaveLength(1);
  });

  it('throttledWarning says how many it left out when the interval has passed', () => {
    const log = logLines();
    let t = 0;
    const warn = throttledWarning(createLogger({ logLevel: 'warn' }, log.stream), 'forged', 1000, () => t);
    for (let i = 0; i < 5; i++) warn({ i });
    t = 1000;
    warn({ i: 5 });
    expect(log.lines.map((l) => [l.i, l.suppressed_since_last])).toEqual([
      [0, 0],
      [5, 4],
    ]);
  });
});

describe('an unreachable Stripe API', () => {
  it('answers the checkout with 503, Retry-After and a clear message', async () => {
    app = await startCheckoutApp({ ...STRIPE, DVS_STRIPE_API_BASE: `http://127.0.0.1:${await closedPort()}` });
    const res = await app.call('POST', '/checkout/session', { headers: { origin: app.url } });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    const body = JSON.parse(res.text) as { error: string };
    expect(body.error).toMatch(/payment processor \(Stripe\) cannot be reached/);
    expect(res.text).not.toMatch(/ECONNREFUSED|\.ts:\d+/);
  });
});
