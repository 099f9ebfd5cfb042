// The monitor API as REST sees it: bodies checked against their schemas, the domain normalised as
// /api/quickscan does, and the service's refusals as the Error body with its status. Translation only:
// holding tokens, scheduling and running are src/service/monitors.ts.
import type { Account } from '../../payments/accounts.ts';
import type { MonitorRow } from '../../batches/monitor-store.ts';
import type { Monitor } from '../../lib/schema-types/api/monitor.ts';
import type { MonitorList } from '../../lib/schema-types/api/monitor-list.ts';
import type { MonitorRequest } from '../../lib/schema-types/api/monitor-request.ts';
import type { MonitorTokens } from '../../lib/schema-types/api/monitor-tokens.ts';
import type { MonitorUpdate } from '../../lib/schema-types/api/monitor-update.ts';
import { MonitorConflictError, MonitorInputError, MonitorTokenError, type Monitors } from '../../service/monitors.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { validationProblem, type ApiSchemaName } from './api-schemas.ts';
import { domainOf } from './scan-operations.ts';

export interface MonitorOperationDeps {
  monitors: Monitors;
  extraSuffixes: readonly string[];
}

const DOCS = '/docs/api#monitors';

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

  async list(account: Account): Promise<MonitorList> {
    return { monitors: (await this.deps.monitors.list(account)).map(monitorBody) };
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
