// Generated from schemas/api/webhook-deliveries.json by `npm run types`; edit the schema, not this file.

import type { Event } from './webhook-request.ts';

/**
 * An endpoint's delivery attempts, newest first (the last 100).
 */
export interface WebhookDeliveries {
  deliveries: {
    /**
     * The message's webhook-id header: the same on every attempt of one event.
     */
    webhook_id: string;
    event: Event;
    time: string;
    /**
     * 1 for the first attempt.
     */
    attempt: number;
    /**
     * The receiver's HTTP status; null when it answered none (see error).
     */
    status: number | null;
    /**
     * Why no answer came: refused address, timeout, connection failure.
     */
    error: string | null;
  }[];
}
