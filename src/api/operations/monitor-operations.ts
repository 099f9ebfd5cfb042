// The monitor API as REST sees it: bodies checked against their schemas, the domain normalised as
// /api/quickscan does, and the service's refusals as the Error body with its status. Translation only:
// holding tokens, scheduling and running are src/service/monitors.ts.
import type { Account } from '../../payments/accounts.ts';
import type { ListPosition, MonitorRow } from '../../batches/monitor-store.ts';
import type { Monitor } from '../../lib/schema-types/api/monitor.ts';
import type { MonitorList } from '../../lib/schema-types/api/monitor-list.ts';
import type { MonitorRequest } from '../../lib/schema-types/api/monitor-request.ts';
import type { MonitorTokens } from '../../lib/schema-types/api/monitor-tokens.ts';
import type { MonitorUpdate } from '../../lib/schema-types/api/monitor-update.ts';
import {
  MonitorConflictError,
  MonitorInputError,
  MonitorLimitError,
  MonitorTokenError,
  type Monitors,
} from '../../service/monitors.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { validationProblem, type ApiSchemaName } from './api-schemas.ts';
import { domainOf } from './scan-operations.ts';

export interface MonitorOperationDeps {
  monitors: Monitors;
  extraSuffixes: readonly string[];
}

const DOCS = '/docs/api#monitors';

export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 1000;

/** A page's cursor: the last monitor's creation time (microseconds since the epoch) and id, a place in the order. */
const CURSOR = /^(\d{1,17})\.(mon_[0-9a-f]{24})$/;

const cursorOf = (p: ListPosition): string => `${p.createdUs}.${p.id}`;

function positionOf(after: unknown): ListPosition | null {
  if (after === undefined) return null;
  const m = typeof after === 'string' ? CURSOR.exec(after) : null;
  if (!m) throw new ApiError(400, 'after must be the next cursor of an earlier page of this list, given once', DOCS);
  return { createdUs: m[1]!, id: m[2]! };
}

function limitOf(raw: unknown): number {
  if (raw === undefined) return LIST_DEFAULT_LIMIT;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > LIST_MAX_LIMIT)
    throw new ApiError(400, `limit must be a whole number from 1 to ${LIST_MAX_LIMIT}, given once`, DOCS);
  return Number(raw);
}

const notFound = (id: string) => new ApiError(404, `this account has no monitor ${id}`, DOCS, {}, 'not_found');

const TOKEN_CODES: Record<MonitorTokenError['reason'], ErrorCode> = {
  unknown: 'payment_required',
  wrong_mode: 'payment_required',
  expired: 'token_expired',
  spent: 'token_used',
  in_use: 'token_used',
};

export function monitorBody(m: MonitorRow): Monitor {
  const run = m.lastRun;
  return {
    id: m.id,
    domain: m.domain,
    interval: m.interval,
    paused: m.paused !== null,
    paused_reason: m.paused,
    credits: m.credits,
    next_run_at: m.nextDueAt?.toISOString() ?? null,
    certificate_id: m.certificateId,
    verdict: m.verdict,
    last_run: run && {
      due_at: run.dueAt.toISOString(),
      attempts: run.attempts,
      started_at: run.startedAt.toISOString(),
      finished_at: run.finishedAt?.toISOString() ?? null,
      outcome: run.outcome,
      verdict: run.verdict,
      score: run.score,
      certificate_id: run.certificateId,
    },
    created_at: m.createdAt.toISOString(),
  };
}

function checked<T>(schema: ApiSchemaName, body: unknown): T {
  const problem = validationProblem(schema, body);
  if (problem) throw new ApiError(400, problem, DOCS);
  return body as T;
}

/** The service's refusals as API errors; anything else goes on as it is. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof MonitorInputError) throw new ApiError(400, err.message, DOCS);
    if (err instanceof MonitorTokenError) throw new ApiError(402, err.message, DOCS, {}, TOKEN_CODES[err.reason]);
    if (err instanceof MonitorConflictError) throw new ApiError(409, err.message, DOCS, {}, 'conflict');
    // A limit of the account, not of the moment: waiting does not lift it (as max-batch's 413), so no 429.
    if (err instanceof MonitorLimitError) throw new ApiError(403, err.message, DOCS, {}, 'monitor_limit');
    throw err;
  }
}

export class MonitorOperations {
  constructor(private readonly deps: MonitorOperationDeps) {}

  async create(account: Account, body: unknown): Promise<Monitor> {
    const request = checked<MonitorRequest>('monitor-request', body);
    const domain = domainOf(request.domain, this.deps.extraSuffixes);
    return monitorBody(
      await translated(() => this.deps.monitors.create(account, domain, request.interval, request.payment_tokens)),
    );
  }

  /** A page of the account's monitors: `limit` and `after` as the query string gave them. */
  async list(account: Account, query: { limit?: unknown; after?: unknown }): Promise<MonitorList> {
    const limit = limitOf(query.limit);
    const after = positionOf(query.after);
    // One row more than the page: it tells whether another page follows.
    const rows = await this.deps.monitors.list(account, after, limit + 1);
    const page = rows.slice(0, limit);
    return {
      monitors: page.map(monitorBody),
      next: rows.length > limit ? cursorOf(page[page.length - 1]!.position) : null,
    };
  }

  async get(account: Account, id: string): Promise<Monitor> {
    const m = await this.deps.monitors.get(account, id);
    if (!m) throw notFound(id);
    return monitorBody(m);
  }

  async update(account: Account, id: string, body: unknown): Promise<Monitor> {
    const change = checked<MonitorUpdate>('monitor-update', body);
    const m = await translated(() => this.deps.monitors.update(account, id, change));
    if (!m) throw notFound(id);
    return monitorBody(m);
  }

  async addTokens(account: Account, id: string, body: unknown): Promise<Monitor> {
    const request = checked<MonitorTokens>('monitor-tokens', body);
    const m = await translated(() => this.deps.monitors.addTokens(account, id, request.payment_tokens));
    if (!m) throw notFound(id);
    return monitorBody(m);
  }

  async remove(account: Account, id: string): Promise<void> {
    if (!(await this.deps.monitors.remove(account, id))) throw notFound(id);
  }
}
