// Generated from schemas/api/webhook-list.json by `npm run types`; edit the schema, not this file.

import type { WebhookEndpoint } from './webhook-endpoint.ts';

/**
 * The account's webhook endpoints, oldest first.
 */
export interface WebhookList {
  webhooks: WebhookEndpoint[];
}
