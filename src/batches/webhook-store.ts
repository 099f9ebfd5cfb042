// Webhook endpoints, their messages and every delivery attempt, in the queue database. A message is one event for
// one endpoint; its id is the `webhook-id` every attempt carries. What a delivery means is
// src/service/webhooks.ts's; this module only reads and writes the rows.
import { randomBytes } from 'node:crypto';
import type { Queryable, QueueDatabase } from './queue-database.ts';

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface WebhookMessage {
  id: string;
  endpointId: string;
  event: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
}

export interface DeliveryAttempt {
  messageId: string;
  event: string;
  attempt: number;
  at: Date;
  status: number | null;
  error: string | null;
}

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  secret: string;
  previous_secret: string | null;
  previous_until: Date | null;
  disabled_at: Date | null;
  created_at: Date;
}

const endpointOf = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  events: r.events,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousUntil: r.previous_until,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
});

export const newEndpointId = (): string => `ep_${randomBytes(12).toString('hex')}`;
export const newMessageId = (): string => `msg_${randomBytes(12).toString('hex')}`;

export class WebhookStore {
  constructor(readonly db: QueueDatabase) {}

  async create(accountId: string, url: string, events: readonly string[], secret: string): Promise<WebhookEndpoint> {
    const [row] = await this.db.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, account_id, url, events, secret) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [newEndpointId(), accountId, url, events, secret],
    );
    return endpointOf(row!);
  }

  async get(id: string, accountId: string): Promise<WebhookEndpoint | null> {
    const [row] = await this.db.query<EndpointRow>(
      'SELECT * FROM webhook_endpoints WHERE id = $1 AND account_id = $2',
      [id, accountId],
    );
    return row ? endpointOf(row) : null;
  }

  async list(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.query<EndpointRow>(
      'SELECT * FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id',
      [accountId],
    );
    return rows.map(endpointOf);
  }

  async remove(id: string, accountId: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2 RETURNING id', [
      id,
      accountId,
    ]);
    return rows.length === 1;
  }

  /** A new secret; the current one keeps signing beside it until `overlapSeconds` from now. */
  async rotate(id: string, accountId: string, secret: string, overlapSeconds: number): Promise<WebhookEndpoint | null> {
    const [row] = await this.db.query<EndpointRow>(
      `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
         previous_until = now() + make_interval(secs => $4)
       WHERE id = $1 AND account_id = $2 RETURNING *`,
      [id, accountId, secret, overlapSeconds],
    );
    return row ? endpointOf(row) : null;
  }

  /** The account's live endpoints that take this event. */
  async subscribed(tx: Queryable, accountId: string, event: string): Promise<WebhookEndpoint[]> {
    const rows = await tx.query<EndpointRow>(
      `SELECT * FROM webhook_endpoints WHERE account_id = $1 AND disabled_at IS NULL AND $2 = ANY (events)`,
      [accountId, event],
    );
    return rows.map(endpointOf);
  }

  async addMessage(tx: Queryable, endpointId: string, event: string, body: string): Promise<string> {
    const id = newMessageId();
    await tx.query('INSERT INTO webhook_messages (id, endpoint_id, event, body) VALUES ($1, $2, $3, $4)', [
      id,
      endpointId,
      event,
      body,
    ]);
    return id;
  }

  /** A message still to deliver, with its endpoint; null once it is settled or its endpoint is gone. */
  async pending(messageId: string): Promise<{ message: WebhookMessage; endpoint: WebhookEndpoint } | null> {
    const [row] = await this.db.query<EndpointRow & { m_id: string; event: string; body: string; attempts: number }>(
      `SELECT e.*, m.id AS m_id, m.event, m.body, m.attempts FROM webhook_messages m
         JOIN webhook_endpoints e ON e.id = m.endpoint_id
       WHERE m.id = $1 AND m.state = 'pending'`,
      [messageId],
    );
    if (!row) return null;
    const message: WebhookMessage = {
      id: row.m_id,
      endpointId: row.id,
      event: row.event,
      body: row.body,
      state: 'pending',
      attempts: row.attempts,
    };
    return { message, endpoint: endpointOf(row) };
  }

  /** Records an attempt and where the message stands after it; `disable` marks the endpoint gone (410). */
  async recordAttempt(
    tx: Queryable,
    message: WebhookMessage,
    outcome: { status: number | null; error: string | null; state: WebhookMessage['state']; disable: boolean },
  ): Promise<void> {
    const attempt = message.attempts + 1;
    await tx.query(
      `INSERT INTO webhook_attempts (message_id, attempt, endpoint_id, status, error) VALUES ($1, $2, $3, $4, $5)`,
      [message.id, attempt, message.endpointId, outcome.status, outcome.error],
    );
    await tx.query('UPDATE webhook_messages SET attempts = $2, state = $3 WHERE id = $1', [
      message.id,
      attempt,
      outcome.state,
    ]);
    if (outcome.disable)
      await tx.query('UPDATE webhook_endpoints SET disabled_at = now() WHERE id = $1 AND disabled_at IS NULL', [
        message.endpointId,
      ]);
  }

  /** Settles a message without sending it (its endpoint was disabled after it was written). */
  async abandon(messageId: string): Promise<void> {
    await this.db.query(`UPDATE webhook_messages SET state = 'failed' WHERE id = $1 AND state = 'pending'`, [
      messageId,
    ]);
  }

  /** The endpoint's delivery attempts, newest first. */
  async attempts(endpointId: string, limit: number): Promise<DeliveryAttempt[]> {
    const rows = await this.db.query<{
      message_id: string;
      event: string;
      attempt: number;
      at: Date;
      status: number | null;
      error: string | null;
    }>(
      `SELECT a.message_id, m.event, a.attempt, a.at, a.status, a.error FROM webhook_attempts a
         JOIN webhook_messages m ON m.id = a.message_id
       WHERE a.endpoint_id = $1 ORDER BY a.at DESC, a.attempt DESC LIMIT $2`,
      [endpointId, limit],
    );
    return rows.map((r) => ({
      messageId: r.message_id,
      event: r.event,
      attempt: r.attempt,
      at: r.at,
      status: r.status,
      error: r.error,
    }));
  }
}
