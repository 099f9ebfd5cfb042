// Events for the accounts' webhook endpoints, delivered as the Standard Webhooks specification says: a message per
// event and endpoint, written in the transaction of the change it reports, with its first delivery job; every
// attempt signed anew (webhook-id constant, timestamp now), only a 2xx answer counting as delivered, retries on
// the specification's schedule, and a 410 Gone disabling the endpoint. Deliveries go out through the guarded
// network layer (`send`), so a webhook URL reaches no address a scan could not.
import type { FetchedJob, JobQueue } from '../batches/job-queue.ts';
import type { EngineDb, Queryable } from '../batches/queue-database.ts';
import type { DeliveryAttempt, WebhookEndpoint, WebhookStore } from '../batches/webhook-store.ts';
import type { Logger } from '../lib/log.ts';
import { newWebhookSecret, signWebhook } from '../signing/standard-webhooks.ts';

export const DELIVERY_QUEUE = 'dvs-webhook-delivery';

/** The event types an endpoint may subscribe to (docs/api.md, Webhooks). */
export const EVENT_TYPES = [
  'batch.completed',
  'validation.completed',
  'certificate.issued',
  'certificate.superseded',
  'certificate.revoked',
  'validation.regressed',
  'validation.recovered',
  'monitor.credits_low',
  'monitor.paused',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The specification's waits before each retry (s): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;
/** The specification's limit on one attempt. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How long an attempt's job may stay taken before the engine gives it to another instance. */
const ATTEMPT_LEASE_S = 60;
/** Attempts of a delivery job that failed inside the service (not at the receiver) before it is dropped. */
const JOB_RETRIES = 3;
/** Delivery attempts listed at once. */
export const ATTEMPTS_LISTED = 100;

export interface DeliveryJob {
  message: string;
  /** The attempt this job makes: a job run again after its attempt was recorded sends nothing. */
  attempt: number;
}

/** What the receiver answered, or why it answered nothing (refused address, timeout, connection error). */
export type SendOutcome = { status: number } | { error: string };

export interface WebhookEngine {
  store: WebhookStore;
  queue: JobQueue;
}

export interface WebhookDeps {
  engine: () => Promise<WebhookEngine>;
  /** POSTs the body through the guarded network layer, no redirects followed, within DELIVERY_TIMEOUT_MS. */
  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome>;
  /** Divides the retry schedule: 1 in service, large in tests. */
  retryDivisor: number;
  /** How long a rotated-out secret keeps signing beside the new one (s). */
  overlapSeconds: number;
  log: Logger;
}

type Tx = Queryable & { engine: EngineDb };

export class Webhooks {
  constructor(private readonly deps: WebhookDeps) {}

  static async prepare(queue: JobQueue): Promise<void> {
    await queue.ensureQueue({ name: DELIVERY_QUEUE, retryLimit: JOB_RETRIES, retryDelaySeconds: 5 });
  }

  /** This instance delivers from now on. */
  async start(): Promise<void> {
    const { queue } = await this.deps.engine();
    await queue.work<DeliveryJob>(DELIVERY_QUEUE, (job) => this.deliver(job), 0.5);
  }

  async register(accountId: string, url: string, events: readonly EventType[]): Promise<WebhookEndpoint> {
    return (await this.deps.engine()).store.create(accountId, url, [...new Set(events)], newWebhookSecret());
  }

  async get(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    return (await this.deps.engine()).store.get(id, accountId);
  }

  async list(accountId: string): Promise<WebhookEndpoint[]> {
    return (await this.deps.engine()).store.list(accountId);
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    return (await this.deps.engine()).store.remove(id, accountId);
  }

  async rotate(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    const { store } = await this.deps.engine();
    return store.rotate(id, accountId, newWebhookSecret(), this.deps.overlapSeconds);
  }

  async attempts(endpoint: WebhookEndpoint): Promise<DeliveryAttempt[]> {
    return (await this.deps.engine()).store.attempts(endpoint.id, ATTEMPTS_LISTED);
  }

  /** Writes the event for every endpoint of the account that takes it, with their first jobs, in `tx`. */
  async publish(tx: Tx, accountId: string, type: EventType, data: Record<string, unknown>): Promise<void> {
    const { store, queue } = await this.deps.engine();
    const endpoints = await store.subscribed(tx, accountId, type);
    if (endpoints.length === 0) return;
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
    for (const endpoint of endpoints) {
      const message = await store.addMessage(tx, endpoint.id, type, body);
      await queue.enqueue<DeliveryJob>(
        DELIVERY_QUEUE,
        [{ data: { message, attempt: 1 }, expireInSeconds: ATTEMPT_LEASE_S }],
        tx.engine,
      );
    }
  }

  /** One attempt of one message; the next attempt, if any, is a new job written with this attempt's record. */
  private async deliver(job: FetchedJob<DeliveryJob>): Promise<void> {
    const { store, queue } = await this.deps.engine();
    const found = await store.pending(job.data.message);
    if (!found || found.message.attempts + 1 !== job.data.attempt) return;
    const { message, endpoint } = found;
    if (endpoint.disabledAt) return store.abandon(message.id);
    const now = Date.now();
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousUntil && endpoint.previousUntil.getTime() > now)
      secrets.push(endpoint.previousSecret);
    const headers = signWebhook(secrets, message.id, Math.floor(now / 1000), message.body);
    const outcome = await this.deps.send(
      endpoint.url,
      { ...headers, 'content-type': 'application/json' },
      message.body,
    );
    const status = 'status' in outcome ? outcome.status : null;
    const delivered = status !== null && status >= 200 && status < 300;
    const gone = status === 410;
    const wait = delivered || gone ? undefined : RETRY_SCHEDULE_S[message.attempts];
    await queue.db.transaction(async (tx) => {
      await store.recordAttempt(tx, message, {
        status,
        error: 'error' in outcome ? outcome.error : null,
        state: delivered ? 'delivered' : wait === undefined ? 'failed' : 'pending',
        disable: gone,
      });
      if (wait === undefined) return;
      const startAfter = new Date(Date.now() + (wait * 1000) / this.deps.retryDivisor);
      await queue.enqueue<DeliveryJob>(
        DELIVERY_QUEUE,
        [
          {
            data: { message: message.id, attempt: job.data.attempt + 1 },
            expireInSeconds: ATTEMPT_LEASE_S,
            startAfter,
          },
        ],
        tx.engine,
      );
    });
    if (gone) this.deps.log.info({ endpoint: endpoint.id }, 'webhook endpoint answered 410 Gone: disabled');
  }
}
