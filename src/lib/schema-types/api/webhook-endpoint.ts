// Generated from schemas/api/webhook-endpoint.json by `npm run types`; edit the schema, not this file.

import type { Event } from './webhook-request.ts';

/**
 * A registered webhook endpoint. Its secret is shown only when it is made (registration, rotation).
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: Event[];
  created_at: string;
  /**
   * When the receiver answered 410 Gone: nothing more is sent to this endpoint.
   */
  disabled_at: string | null;
}
