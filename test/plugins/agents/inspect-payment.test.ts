import { describe, it, expect } from 'vitest';
import { challengeSchemes, inspectPaymentChallenge } from '../../../plugins/agents/inspect-payment.ts';

const offer = {
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '10000',
  asset: '0xA0b8',
  payTo: '0x1234',
  maxTimeoutSeconds: 60,
};

describe('challengeSchemes', () => {
  it('names each challenge and skips auth-params, also inside quotes', () => {
    expect(challengeSchemes('Bearer realm="a, b", error="invalid_token", Payment id="x", method="tempo"')).toEqual([
      'bearer',
      'payment',
    ]);
    expect(challengeSchemes('L402 macaroon="abc", invoice="lnbc1"')).toEqual(['l402']);
    expect(challengeSchemes(null)).toEqual([]);
  });
});

describe('inspectPaymentChallenge', () => {
  it('decodes an x402 v2 PAYMENT-REQUIRED header', () => {
    const header = Buffer.from(
      JSON.stringify({
        x402Version: 2,
        resource: { url: 'https://example.com/paid' },
        accepts: [offer, { scheme: 'exact' }],
      }),
    ).toString('base64');
    expect(inspectPaymentChallenge('https://example.com/paid', { 'payment-required': header }, '')).toEqual({
      url: 'https://example.com/paid',
      payment_required_header: true,
      x402_version: 2,
      x402_accepts_count: 2,
      x402_accepts_incomplete_count: 1,
      www_authenticate_schemes: [],
      crawler_price: false,
    });
  });

  it('reads an x402 v1 JSON body and a pay-per-crawl price', () => {
    const body = JSON.stringify({
      x402Version: 1,
      accepts: [{ ...offer, amount: undefined, maxAmountRequired: '10000' }],
    });
    expect(inspectPaymentChallenge('https://example.com/', { 'crawler-price': 'USD 0.01' }, body)).toMatchObject({
      x402_version: 1,
      x402_accepts_incomplete_count: 0,
      crawler_price: true,
    });
  });

  it('reports a bare 402 as carrying nothing', () => {
    expect(inspectPaymentChallenge('https://example.com/', {}, 'Payment required')).toMatchObject({
      payment_required_header: false,
      x402_version: null,
      www_authenticate_schemes: [],
      crawler_price: false,
    });
  });
});
