// Generated from schemas/api/webhook-list.json by `npm run types`; edit the schema, not this file.

/**
 * The account's webhook endpoints, oldest first.
 */
export interface WebhookList {
  webhooks: WebhookEndpoint[];
}
/**
 * A registered webhook endpoint. Its secret is shown only when it is made (registration, rotation).
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  /**
   * Items: An event type (docs/api.md, Webhooks).
   */
  events: (
    | 'batch.completed'
    | 'validation.completed'
    | 'certificate.issued'
    | 'certificate.superseded'
    | 'certificate.revoked'
    | 'validation.regressed'
    | 'validation.recovered'
    | 'monitor.credits_low'
    | 'monitor.paused'
  )[];
  created_at: string;
  /**
   * When the receiver answered 410 Gone: nothing more is sent to this endpoint.
   */
  disabled_at: string | null;
}
