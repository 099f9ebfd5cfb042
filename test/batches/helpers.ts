// The batch tests' service: the real ledger (with accounts) and the queue on a fresh PostgreSQL schema, against
// the shared fixture internet, with an account to call it with.
import { loadConfig } from '../../src/lib/config.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';
import type { AccountLimits } from '../../src/payments/accounts.ts';
import { freshSchema, type TestSchema } from '../payments/postgres.ts';
import { startTestService, type ApiResponse, type TestService } from '../server/harness.ts';
import { useWorld } from '../suite/world.ts';

export interface BatchService extends TestService {
  schema: TestSchema;
  key: string;
  /** A call with the account's key. */
  api(method: string, pathname: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  /** Polls the batch until it is done or cancelled. */
  finished(id: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

export async function newAccount(url: string, name: string, limits: Partial<AccountLimits> = {}): Promise<string> {
  const ledger = await openLedger(loadConfig({ DVS_DATABASE_URL: url, DVS_DATA_DIR: '/nonexistent' }));
  try {
    return (await ledger.accounts.create(name, limits)).key;
  } finally {
    await ledger.close();
  }
}

export async function startBatchService(
  env: Record<string, string> = {},
  limits: Partial<AccountLimits> = {},
  schema?: TestSchema,
): Promise<BatchService> {
  const world = await useWorld();
  const s = schema ?? (await freshSchema());
  const svc = await startTestService(
    { ...world.env, DVS_DATABASE_URL: s.url, DVS_QUEUE_MAINTENANCE_S: '1', ...env },
    { realPayments: true },
  );
  const key = await newAccount(s.url, 'acme', limits);
  const api: BatchService['api'] = (method, pathname, body, headers = {}) =>
    svc.call(method, pathname, {
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
    });
  return {
    ...svc,
    schema: s,
    key,
    api,
    async finished(id, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const status = (await api('GET', `/api/batches/${id}`)).json() as Record<string, unknown>;
        if (status.status === 'done' || status.status === 'cancelled' || Date.now() > until) return status;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      await svc.stop();
      if (!schema) await s.drop();
    },
  };
}

/** NDJSON lines as objects. */
export const ndjson = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
