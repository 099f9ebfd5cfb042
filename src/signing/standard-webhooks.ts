// Standard Webhooks (standardwebhooks.com, spec v1): the secret format and the signature a receiver checks with
// any of the specification's libraries. The signed content is `<webhook-id>.<webhook-timestamp>.<body>`, signed
// with HMAC-SHA256 under the secret's key; `webhook-signature` lists one `v1,<base64>` per key, space-separated,
// so during a rotation both the new secret and the old one verify.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** The specification asks for keys of 24 to 64 bytes. */
const KEY_BYTES = 32;

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(KEY_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one delivery: `timestamp` in whole seconds since the epoch. */
export function signWebhook(secrets: readonly string[], id: string, timestamp: number, body: string): SignedHeaders {
  const content = `${id}.${timestamp}.${body}`;
  const signatures = secrets.map((s) => `v1,${createHmac('sha256', keyOf(s)).update(content).digest('base64')}`);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}
