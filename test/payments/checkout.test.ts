// The embedded (test-mode) checkout and the certificate route, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckoutApp, tokenOnPage, type CheckoutApp } from './checkout-app.ts';
import { parseAs, stringContaining } from '../helpers/typed-json.ts';

describe('embedded checkout', () => {
  let app: CheckoutApp;

  beforeAll(async () => {
    app = await startCheckoutApp({ DVS_PRICE_CENTS: '1999', DVS_CURRENCY: 'eur', DVS_TOKEN_TTL: '30d' });
  });
  afterAll(() => app.close());

  it('serves an HTML page that explains Full Validation, its price and test mode, under its own CSP', async () => {
    const res = await app.call('GET', '/checkout');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(res.text).toContain('<h1>Full Validation</h1>');
    expect(res.text).toContain('€19.99');
    expect(res.text).toContain('Test mode');
    expect(res.text).toContain('after 30 days');
    expect(res.text).toContain('<form method="post" action="/checkout/session">');
    const csp = res.headers['content-security-policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("form-action 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
    // no-referrer would turn the form's Origin into "null"
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('allows exactly its inline script and style by hash', async () => {
    const { createHash } = await import('node:crypto');
    const res = await app.call('GET', '/checkout');
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.text)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    expect(res.headers['content-security-policy']).toContain(`script-src ${sha(script)}`);
    expect(res.headers['content-security-policy']).toContain(`style-src ${sha(style)}`);
  });

  it('issues a token on a same-origin click and shows it with examples that use it', async () => {
    const res = await app.call('POST', '/checkout/session', { headers: { origin: app.url } });
    expect(res.status).toBe(200);
    const token = tokenOnPage(res.text);
    expect(token).toMatch(/^dvs_test_[A-Za-z0-9_-]{43}$/);
    expect(res.text).toContain(`curl -sS https://dvs.example.net/api/fullvalidation`);
    expect(res.text).toContain(`&#34;payment_token&#34;:&#34;${token}&#34;`);
    expect(res.text).toContain('&#34;method&#34;:&#34;tools/call&#34;');
    expect(res.text).toContain('&#34;name&#34;:&#34;service_fullvalidation&#34;');
    expect(res.text).toContain('data-copy="token"');
    expect(await app.payments.ledger.status(token!)).toMatchObject({ state: 'issued', source: 'checkout' });
  });

  it('accepts the configured public origin too (behind a proxy)', async () => {
    const res = await app.call('POST', '/checkout/session', { headers: { origin: 'https://dvs.example.net' } });
    expect(res.status).toBe(200);
  });

  it('refuses a click from another origin, or from nowhere, and issues nothing', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      {} as Record<string, string>,
    ]) {
      const res = await app.call('POST', '/checkout/session', { headers });
      expect(res.status).toBe(403);
      expect(parseAs('error', res.text).error).toContain('checkout page');
    }
    const viaReferer = await app.call('POST', '/checkout/session', { headers: { referer: `${app.url}/checkout` } });
    expect(viaReferer.status).toBe(200);
    const crossSite = await app.call('POST', '/checkout/session', {
      headers: { origin: app.url, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const sameOrigin = await app.call('POST', '/checkout/session', {
      headers: { origin: app.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('has no webhook or success page without a processor that needs them', async () => {
    expect(
      (await app.call('POST', '/checkout/webhook', { body: '{}', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(404);
    expect((await app.call('GET', '/checkout/success?session_id=cs_test_1')).status).toBe(404);
  });
});

describe('GET /api/certificates/{id}', () => {
  let app: CheckoutApp;

  beforeAll(async () => {
    app = await startCheckoutApp();
  });
  afterAll(() => app.close());

  it('returns a stored certificate byte for byte as JSON', async () => {
    const { ledger } = app.payments;
    const [issued] = await ledger.issue({ source: 'test' });
    const r = await ledger.reserve(issued!.token, 'good.test');
    if (r.kind !== 'reserved') throw new Error('expected a reservation');
    const body = '{"jws":"eyJhbGciOiJFZERTQSJ9..c2ln","payload":{"domain":"good.test","id":"c1","score":97}}';
    await ledger.commit(issued!.token, r.reservationId, { id: 'c1', domain: 'good.test', body });
    const res = await app.call('GET', '/api/certificates/c1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(body);
  });

  it('answers 404 with an Error body for an id it never issued', async () => {
    for (const id of ['missing', '..%2F..%2Fetc', 'x'.repeat(300)]) {
      const res = await app.call('GET', `/api/certificates/${id}`);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toMatchObject({ error: stringContaining('no certificate') });
    }
  });
});
