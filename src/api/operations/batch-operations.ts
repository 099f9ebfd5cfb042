// The batch API as REST sees it: the caller's account from its API key, the body checked entry by entry (an
// invalid or repeated domain is rejected on its own, never the whole batch), and the service's refusals as
// the Error body with its status. Translation only: accepting, running and cancelling are src/service/batches.ts.
import type { Account, Accounts } from '../../payments/accounts.ts';
import type { BatchRow, NewItem } from '../../batches/batch-store.ts';
import type { BatchAccepted } from '../../lib/schema-types/api/batch-accepted.ts';
import type { BatchRequest } from '../../lib/schema-types/api/batch-request.ts';
import type { BatchStatus } from '../../lib/schema-types/api/batch-status.ts';
import type { Account as AccountBody } from '../../lib/schema-types/api/account.ts';
import { BatchTooLargeError, QuotaExceededError, type Batches } from '../../service/batches.ts';
import type { ResultRow } from '../../batches/batch-store.ts';
import { ApiError } from '../http/errors.ts';
import { validationProblem } from './api-schemas.ts';
import { domainOf } from './scan-operations.ts';
import { SPACE_OR_TAB, trimOf } from '../../lib/trim.ts';

export interface BatchOperationDeps {
  batches: Batches;
  accounts: Accounts;
  extraSuffixes: readonly string[];
}

const DOCS = '/docs/api#batches';
const BEARER = /^Bearer +(\S+)$/i;

const unauthorized = (message: string) =>
  new ApiError(401, message, DOCS, { 'WWW-Authenticate': 'Bearer realm="dvs batches"' }, 'unauthorized');

const notFound = (id: string) => new ApiError(404, `this account has no batch ${id}`, DOCS, {}, 'not_found');

export function batchStatus(b: BatchRow): BatchStatus {
  return {
    id: b.id,
    mode: b.mode,
    status: b.status,
    total: b.total,
    done: b.done,
    failed: b.failed,
    created_at: b.createdAt.toISOString(),
    started_at: b.startedAt?.toISOString() ?? null,
    finished_at: b.finishedAt?.toISOString() ?? null,
  };
}

/** The entries of a request as (domain, token) pairs in the order sent. */
function entries(body: BatchRequest): { domain: string; paymentToken?: string }[] {
  if (body.mode === 'quick') return body.domains.map((domain) => ({ domain }));
  return body.items.map((i) => ({ domain: i.domain, paymentToken: i.payment_token }));
}

export class BatchOperations {
  constructor(private readonly deps: BatchOperationDeps) {}

  /** The live account of a Bearer API key; 401 for none, an unknown or revoked key, or a payment token. */
  async account(authorization: string): Promise<Account> {
    if (!authorization) throw unauthorized('an API key is required: send Authorization: Bearer <api key>');
    const key = BEARER.exec(trimOf(authorization, SPACE_OR_TAB))?.[1];
    if (!key) throw unauthorized('the Authorization header must be Bearer <api key>');
    if (/^dvs_(test|live)_/.test(key))
      throw unauthorized(
        'a payment token is not an API key and is never accepted in a header; batch items carry their tokens in the body',
      );
    const account = await this.deps.accounts.authenticate(key);
    if (!account) throw unauthorized('this API key is not valid here: unknown or revoked');
    return account;
  }

  accountBody(a: Account): AccountBody {
    return {
      name: a.name,
      domains_per_day: a.domainsPerDay,
      used_today: a.usedToday,
      max_batch: a.maxBatch,
      concurrency: a.concurrency,
      max_monitors: a.maxMonitors,
    };
  }

  async submit(account: Account, body: unknown): Promise<BatchAccepted> {
    const problem = validationProblem('batch-request', body);
    if (problem) throw new ApiError(400, problem, DOCS);
    const request = body as BatchRequest;
    const rejected: BatchAccepted['rejected'] = [];
    const seen = new Set<string>();
    const items: NewItem[] = [];
    entries(request).forEach((entry, index) => {
      let domain: string;
      try {
        domain = domainOf(entry.domain, this.deps.extraSuffixes);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        rejected.push({ index, domain: entry.domain, code: 'invalid_domain', error: err.message });
        return;
      }
      if (seen.has(domain)) {
        rejected.push({ index, domain: entry.domain, code: 'duplicate', error: `${domain} is earlier in this batch` });
        return;
      }
      if (entry.paymentToken === undefined) {
        seen.add(domain);
        items.push({ domain });
        return;
      }
      const tokenDigest = this.deps.batches.tokenDigest(entry.paymentToken);
      if (tokenDigest === null) {
        rejected.push({
          index,
          domain: entry.domain,
          code: 'invalid_token',
          error: 'payment_token is not a payment token of this service (see /checkout); this item was not taken',
        });
        return;
      }
      seen.add(domain);
      items.push({ domain, tokenDigest });
    });
    if (items.length === 0)
      throw new ApiError(
        400,
        `no valid domain in this batch (first problem: ${rejected[0]!.error})`,
        DOCS,
        {},
        'invalid_domain',
      );
    try {
      const batch = await this.deps.batches.submit(account, request.mode, items);
      return { id: batch.id, status: batch.status, total: batch.total, rejected };
    } catch (err) {
      if (err instanceof BatchTooLargeError)
        throw new ApiError(413, `${items.length} domains: ${err.message}`, DOCS, {}, 'batch_too_large');
      if (err instanceof QuotaExceededError)
        throw new ApiError(429, err.message, DOCS, { 'Retry-After': String(err.retryAfterSeconds) }, 'quota_exceeded');
      throw err;
    }
  }

  async status(account: Account, id: string): Promise<BatchStatus> {
    const batch = await this.deps.batches.status(account, id);
    if (!batch) throw notFound(id);
    return batchStatus(batch);
  }

  async cancel(account: Account, id: string): Promise<BatchStatus> {
    const cancelled = await this.deps.batches.cancel(account, id);
    if (cancelled === null) throw notFound(id);
    const batch = (await this.deps.batches.status(account, id))!;
    if (!cancelled)
      throw new ApiError(409, `batch ${id} is ${batch.status} already: nothing to cancel`, DOCS, {}, 'conflict');
    return batchStatus(batch);
  }

  async results(account: Account, id: string, after: string | undefined): Promise<AsyncIterable<ResultRow>> {
    if (after !== undefined && !/^\d{1,9}$/.test(after))
      throw new ApiError(400, 'after must be a cursor from a result line (digits)', DOCS);
    const rows = await this.deps.batches.results(account, id, after === undefined ? 0 : Number(after));
    if (!rows) throw notFound(id);
    return rows;
  }
}
