// Generated from schemas/api/webhook-request.json by `npm run types`; edit the schema, not this file.

/**
 * An event type (docs/api.md, Webhooks).
 */
export type Event =
  | 'batch.completed'
  | 'validation.completed'
  | 'certificate.issued'
  | 'certificate.superseded'
  | 'certificate.revoked'
  | 'validation.regressed'
  | 'validation.recovered'
  | 'monitor.credits_low'
  | 'monitor.paused';

/**
 * A webhook endpoint to register: an https URL and the event types it takes.
 */
export interface WebhookRequest {
  /**
   * Where deliveries are POSTed. https only; it must not resolve to a private or reserved address.
   */
  url: string;
  /**
   * @minItems 1
   */
  events: [Event, ...Event[]];
}
