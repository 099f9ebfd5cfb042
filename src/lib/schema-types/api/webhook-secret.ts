// Generated from schemas/api/webhook-secret.json by `npm run types`; edit the schema, not this file.

/**
 * An endpoint's signing secret (Standard Webhooks: whsec_ and the base64 of its key), shown once.
 */
export interface WebhookSecret {
  id: string;
  secret: string;
  /**
   * After a rotation: deliveries carry a signature with the previous secret too until then.
   */
  previous_secret_until?: string;
}
