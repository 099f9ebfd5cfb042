// Issue 13 item 4: the checkout cannot mint without limit. Token creation is rate-limited per client (the
// scans' limiter, a key of its own), the test-mode checkout lets only so many unused tokens stand, and a token
// is good only where its mode is: a test token is refused by a live service with a 402, and the reverse.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { Ledger } from '../../src/payments/ledger.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';
import { startTestService, type TestService } from '../server/harness.ts';
import { startCheckoutApp, tokenOnPage, type CheckoutApp } from './checkout-app.ts';

let app: CheckoutApp | null = null;
let svc: TestService | null = null;
afterEach(async () => {
  await app?.close();
  await svc?.stop();
  app = null;
  svc = null;
});

const click = (a: CheckoutApp) => a.call('POST', '/checkout/session', { headers: { origin: a.url } });

describe('the test-mode checkout', () => {
  it('answers 429 with Retry-After once a client has used its budget of checkouts', async () => {
    app = await startCheckoutApp({ DVS_QUICK_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await click(app)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const limited = await click(app);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((JSON.parse(limited.text) as { error: string }).error).toMatch(/too many checkouts/);
    expect(await app.payments.ledger.unusedCount('checkout')).toBe(3);
  });

  it('lets at most DVS_TEST_TOKEN_CAP unused tokens stand, and mints again once one is used', async () => {
    app = await startCheckoutApp({ DVS_TEST_TOKEN_CAP: '2', DVS_QUICK_RATE_LIMIT: '100' });
    const first = tokenOnPage((await click(app)).text)!;
    expect((await click(app)).status).toBe(200);
    const full = await click(app);
    expect(full.status).toBe(503);
    expect((JSON.parse(full.text) as { error: string }).error).toMatch(/2 unused tokens outstanding/);
    expect(full.headers['retry-after']).toBeDefined();
    const held = await app.payments.ledger.reserve(first, 'good.test');
    expect(held.kind).toBe('reserved');
    expect((await click(app)).status).toBe(200);
  });
});

describe('a token is bound to the mode that minted it', () => {
  const LIVE = { DVS_STRIPE_SECRET_KEY: 'sk_test_abuse', DVS_STRIPE_WEBHOOK_SECRET: 'whsec_abuse' };

  /** A token minted in `mode` into the ledger file of the service's data dir. */
  async function mintedIn(dataDir: string, mode: 'test' | 'live'): Promise<string> {
    const ledger: Ledger = await openLedger(loadConfig({ DVS_DATA_DIR: dataDir, ...(mode === 'live' ? LIVE : {}) }));
    try {
      const [issued] = await ledger.issue({ source: 'cli' });
      return issued!.token;
    } finally {
      await ledger.close();
    }
  }

  it('refuses a dvs_test_ token with 402 where a live processor runs', async () => {
    svc = await startTestService({ ...LIVE, DVS_EXTRA_SUFFIXES: 'test' }, { realPayments: true });
    const token = await mintedIn(svc.dataDir, 'test');
    const res = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token });
    expect(res.status).toBe(402);
    expect((res.json() as { error: string }).error).toMatch(/test-mode token.*accepts only live tokens/);
  });

  it('refuses a dvs_live_ token with 402 where the test-mode checkout runs', async () => {
    svc = await startTestService({ DVS_EXTRA_SUFFIXES: 'test' }, { realPayments: true });
    const token = await mintedIn(svc.dataDir, 'live');
    const res = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token });
    expect(res.status).toBe(402);
    expect((res.json() as { error: string }).error).toMatch(/live token.*accepts only test tokens/);
  });
});
