// The webhook API as REST sees it: endpoints of the caller's account (registration with a fresh secret, list,
// removal, secret rotation) and their delivery attempts. Translation only: delivery is src/service/webhooks.ts.
import type { Account } from '../../payments/accounts.ts';
import type { WebhookEndpoint as EndpointRow } from '../../batches/webhook-store.ts';
import type { WebhookDeliveries } from '../../lib/schema-types/api/webhook-deliveries.ts';
import type { WebhookEndpoint } from '../../lib/schema-types/api/webhook-endpoint.ts';
import type { WebhookList } from '../../lib/schema-types/api/webhook-list.ts';
import type { WebhookRequest } from '../../lib/schema-types/api/webhook-request.ts';
import type { WebhookSecret } from '../../lib/schema-types/api/webhook-secret.ts';
import type { Webhooks } from '../../service/webhooks.ts';
import { ApiError } from '../http/errors.ts';
import { validationProblem } from './api-schemas.ts';

export interface WebhookOperationDeps {
  webhooks: Webhooks;
  /** Why deliveries could never reach this URL (an address the network layer refuses), or null. */
  urlProblem(url: URL): Promise<string | null>;
}

const DOCS = '/docs/api#webhooks';

const notFound = (id: string) => new ApiError(404, `this account has no webhook ${id}`, DOCS, {}, 'not_found');

function endpointBody(e: EndpointRow): WebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    events: e.events as WebhookEndpoint['events'],
    created_at: e.createdAt.toISOString(),
    disabled_at: e.disabledAt?.toISOString() ?? null,
  };
}

export class WebhookOperations {
  constructor(private readonly deps: WebhookOperationDeps) {}

  async register(account: Account, body: unknown): Promise<WebhookEndpoint & WebhookSecret> {
    const problem = validationProblem('webhook-request', body);
    if (problem) throw new ApiError(400, problem, DOCS);
    const request = body as WebhookRequest;
    const url = new URL(request.url);
    if (url.username || url.password) throw new ApiError(400, 'url must not carry credentials', DOCS);
    const refused = await this.deps.urlProblem(url);
    if (refused) throw new ApiError(400, `url: ${refused}`, DOCS);
    const endpoint = await this.deps.webhooks.register(account.id, url.href, request.events);
    return { ...endpointBody(endpoint), secret: endpoint.secret };
  }

  async list(account: Account): Promise<WebhookList> {
    return { webhooks: (await this.deps.webhooks.list(account.id)).map(endpointBody) };
  }

  async get(account: Account, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.webhooks.get(account.id, id);
    if (!endpoint) throw notFound(id);
    return endpointBody(endpoint);
  }

  async remove(account: Account, id: string): Promise<void> {
    if (!(await this.deps.webhooks.remove(account.id, id))) throw notFound(id);
  }

  async rotate(account: Account, id: string): Promise<WebhookSecret> {
    const endpoint = await this.deps.webhooks.rotate(account.id, id);
    if (!endpoint) throw notFound(id);
    return {
      id: endpoint.id,
      secret: endpoint.secret,
      ...(endpoint.previousUntil ? { previous_secret_until: endpoint.previousUntil.toISOString() } : {}),
    };
  }

  async deliveries(account: Account, id: string): Promise<WebhookDeliveries> {
    const endpoint = await this.deps.webhooks.get(account.id, id);
    if (!endpoint) throw notFound(id);
    const attempts = await this.deps.webhooks.attempts(endpoint);
    return {
      deliveries: attempts.map((a) => ({
        webhook_id: a.messageId,
        event: a.event as WebhookDeliveries['deliveries'][number]['event'],
        time: a.at.toISOString(),
        attempt: a.attempt,
        status: a.status,
        error: a.error,
      })),
    };
  }
}
