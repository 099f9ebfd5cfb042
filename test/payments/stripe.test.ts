// Stripe Checkout, offline: sessions are created against a local stand-in for the Stripe API that records what
// it was sent, and webhooks are signed with the library's own test helper.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckoutApp, tokenOnPage, type CheckoutApp } from './checkout-app.ts';
import { parseAs } from '../helpers/typed-json.ts';

const SECRET_KEY = 'sk_test_offline_0123456789';
const WEBHOOK_SECRET = 'whsec_offline_0123456789';

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

async function startStripeStandIn(): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method!,
        path: req.url!,
        authorization: req.headers.authorization,
        form: new URLSearchParams(Buffer.concat(chunks).toString()),
      });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_standin${++n}`;
        res.end(
          JSON.stringify({
            id,
            object: 'checkout.session',
            url: `https://checkout.stripe.com/c/pay/${id}`,
            payment_status: 'unpaid',
            status: 'open',
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `no route ${req.url}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function event(type: string, session: { id: string } & Record<string, unknown>): string {
  // Odd spacing on purpose: only the exact signed bytes verify, so a parsed-and-reserialised body would fail.
  return JSON.stringify(
    {
      id: `evt_${type}_${session.id}`,
      object: 'event',
      type,
      data: { object: { object: 'checkout.session', ...session } },
    },
    null,
    3,
  );
}

const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

describe('Stripe Checkout processor', () => {
  let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
  let app: CheckoutApp;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    app = await startCheckoutApp({
      DVS_STRIPE_SECRET_KEY: SECRET_KEY,
      DVS_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DVS_STRIPE_API_BASE: standIn.url,
      DVS_PRICE_CENTS: '4900',
      DVS_CURRENCY: 'usd',
    });
  });
  afterAll(async () => {
    await app.close();
    await standIn.close();
  });

  const webhook = (payload: string, signature: string) =>
    app.call('POST', '/checkout/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });

  it('labels the page with the price and no test mode, and lets the form lead to Stripe', async () => {
    const res = await app.call('GET', '/checkout');
    expect(res.text).toContain('Pay $49.00 and get a token');
    expect(res.text).not.toContain('Test mode');
    expect(res.headers['content-security-policy']).toContain("form-action 'self' https://checkout.stripe.com");
  });

  it('creates a Checkout Session for the configured price and redirects the click to it', async () => {
    const res = await app.call('POST', '/checkout/session', { headers: { origin: app.url } });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_standin\d+$/);
    const sent = standIn.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent.form.get('mode')).toBe('payment');
    expect(sent.form.get('line_items[0][quantity]')).toBe('1');
    expect(sent.form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(sent.form.get('line_items[0][price_data][unit_amount]')).toBe('4900');
    expect(sent.form.get('success_url')).toBe(
      'https://dvs.example.net/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    );
    expect(sent.form.get('cancel_url')).toBe('https://dvs.example.net/checkout?cancelled=1');
  });

  it('still refuses a cross-origin click before asking Stripe', async () => {
    const before = standIn.requests.length;
    expect((await app.call('POST', '/checkout/session', { headers: { origin: 'https://evil.example' } })).status).toBe(
      403,
    );
    expect(standIn.requests).toHaveLength(before);
  });

  it('shows a waiting page until the webhook confirms payment, then the token, minted once', async () => {
    const sessionId = 'cs_test_paid1';
    const waiting = await app.call('GET', `/checkout/success?session_id=${sessionId}`);
    expect(waiting.status).toBe(200);
    expect(waiting.text).toContain('<meta http-equiv="refresh" content="3">');
    expect(tokenOnPage(waiting.text)).toBeNull();

    const payload = event('checkout.session.completed', { id: sessionId, payment_status: 'paid' });
    const first = await webhook(payload, sign(payload));
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ received: true, minted: true });
    const again = await webhook(payload, sign(payload));
    expect(JSON.parse(again.text)).toEqual({ received: true, minted: false });

    const shown = await app.call('GET', `/checkout/success?session_id=${sessionId}`);
    const token = tokenOnPage(shown.text);
    expect(token).toMatch(/^dvs_live_[A-Za-z0-9_-]{43}$/);
    expect(tokenOnPage((await app.call('GET', `/checkout/success?session_id=${sessionId}`)).text)).toBe(token);
    expect(await app.payments.ledger.status(token!)).toMatchObject({ state: 'issued', source: `stripe:${sessionId}` });
    expect((await app.payments.ledger.reserve(token!, 'good.test')).kind).toBe('reserved');
  });

  it('mints nothing for a session completed unpaid, until its async payment succeeds', async () => {
    const sessionId = 'cs_test_async1';
    const completed = event('checkout.session.completed', { id: sessionId, payment_status: 'unpaid' });
    expect(JSON.parse((await webhook(completed, sign(completed))).text)).toEqual({ received: true, minted: false });
    expect((await app.call('GET', `/checkout/success?session_id=${sessionId}`)).text).toContain(
      'Confirming your payment',
    );
    const succeeded = event('checkout.session.async_payment_succeeded', { id: sessionId, payment_status: 'paid' });
    expect(JSON.parse((await webhook(succeeded, sign(succeeded))).text)).toEqual({ received: true, minted: true });
    expect(tokenOnPage((await app.call('GET', `/checkout/success?session_id=${sessionId}`)).text)).toMatch(
      /^dvs_live_/,
    );
  });

  it('refuses a webhook whose signature does not verify, and mints nothing', async () => {
    const sessionId = 'cs_test_forged1';
    const payload = event('checkout.session.completed', { id: sessionId, payment_status: 'paid' });
    for (const signature of [
      sign(payload, 'whsec_someone_else'),
      sign(payload.replace('paid', 'paid ')),
      't=1,v1=00',
    ]) {
      const res = await webhook(payload, signature);
      expect(res.status).toBe(400);
      expect(parseAs('error', res.text).error).toContain('signature');
    }
    expect((await webhook(payload, '')).status).toBe(400);
    expect((await app.call('GET', `/checkout/success?session_id=${sessionId}`)).text).toContain(
      'Confirming your payment',
    );
  });

  it('acknowledges events it does not act on', async () => {
    const payload = event('checkout.session.expired', { id: 'cs_test_expired1', payment_status: 'unpaid' });
    expect(JSON.parse((await webhook(payload, sign(payload))).text)).toEqual({
      received: true,
      ignored: 'checkout.session.expired',
    });
  });

  it('answers 404 for a success page without a session id shaped like one', async () => {
    expect((await app.call('GET', '/checkout/success')).status).toBe(404);
    expect((await app.call('GET', '/checkout/success?session_id=../../x')).status).toBe(404);
  });
});

describe('Stripe configuration', () => {
  it('refuses to start with a secret key but no webhook secret', async () => {
    await expect(startCheckoutApp({ DVS_STRIPE_SECRET_KEY: SECRET_KEY })).rejects.toThrow(/DVS_STRIPE_WEBHOOK_SECRET/);
  });
});
