// Our Standard Webhooks signatures checked by the specification's own TypeScript library (standardwebhooks).
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from '../../src/signing/standard-webhooks.ts';

const body = JSON.stringify({ type: 'batch.completed', timestamp: '2026-11-29T03:00:00.000Z', data: { n: 1 } });
const now = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signatures', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs as the library signs, and the library verifies it', () => {
    const secret = newWebhookSecret();
    const ts = now();
    const headers = signWebhook([secret], 'msg_1', ts, body);
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', new Date(ts * 1000), body));
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with every secret during a rotation, so the old and the new secret both verify', () => {
    const [next, previous, other] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const headers = signWebhook([next, previous], 'msg_2', now(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [next, previous]) expect(new Webhook(secret).verify(body, { ...headers })).toBeTruthy();
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow();
  });

  it('does not verify once the body, the id or the timestamp changes', () => {
    const secret = newWebhookSecret();
    const ts = now();
    const headers = signWebhook([secret], 'msg_3', ts, body);
    const hook = new Webhook(secret);
    expect(() => hook.verify(body.replace('1', '2'), { ...headers })).toThrow();
    expect(() => hook.verify(body, { ...headers, 'webhook-id': 'msg_4' })).toThrow();
    expect(() => hook.verify(body, { ...headers, 'webhook-timestamp': String(ts + 1) })).toThrow();
  });
});
