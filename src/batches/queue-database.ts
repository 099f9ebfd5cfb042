// The database batches and their jobs live in: the shared PostgreSQL (DVS_DATABASE_URL) when instances share
// one, else PGlite (PostgreSQL compiled to WebAssembly) in DVS_DATA_DIR/queue, so the job engine and the batch
// SQL are the same in both. PGlite is opened when first needed, never before the service listens: it costs
// 0.5-1.6 s to reopen and several seconds to create (docs/architecture.md, section 5).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export interface Queryable {
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The adapter pg-boss runs its SQL through (its `db` option), over one of our connections. */
export interface EngineDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface QueueDatabase extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** The schema pg-boss keeps its tables in. */
  readonly engineSchema: string;
  /** The adapter for pg-boss outside any transaction of ours. */
  readonly engine: EngineDb;
  /** Runs `work` in one transaction; `tx.engine` lets pg-boss write its jobs inside it. */
  transaction<T>(work: (tx: Queryable & { engine: EngineDb }) => Promise<T>): Promise<T>;
  /**
   * Runs `work` while no other instance runs its own: the job engine's set-up (its schema, its queues), which
   * pg-boss does not make safe for instances starting at the same moment.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any fixed number: the lock instances take while migrating the batch tables. */
const MIGRATION_LOCK = 0x64_76_73_62;
/** Another: the lock instances take, one after another, while setting up the job engine. */
const ENGINE_SETUP_LOCK = 0x64_76_73_65;

export const PGLITE_DIR = 'queue';

/** The schema pg-boss keeps its tables in, beside the one the connection uses (`pgboss` beside `public`). */
export const engineSchemaFor = (schema: string): string => (schema === 'public' ? 'pgboss' : `${schema}_pgboss`);

async function migrate(db: QueueDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS batch_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const applied = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM batch_schema_migrations')).map((r) => r.version),
    );
    for (const file of readdirSync(MIGRATIONS)
      .filter((f) => /^\d+-[a-z0-9-]+\.sql$/.test(f))
      .sort()) {
      const version = Number.parseInt(file, 10);
      if (applied.has(version)) continue;
      await tx.engine.executeSql(readFileSync(path.join(MIGRATIONS, file), 'utf8'));
      await tx.query('INSERT INTO batch_schema_migrations (version, name) VALUES ($1, $2)', [
        version,
        file.replace(/\.sql$/, ''),
      ]);
    }
  });
}

/** A pool's or client's SQL as the engine's adapter: a text without values may hold several statements. */
const pgEngine = (db: pg.Pool | pg.PoolClient): EngineDb => ({
  executeSql: (text, values) => (values && values.length > 0 ? db.query(text, values) : db.query(text)),
});

async function openPostgres(url: string, onError: (err: Error) => void): Promise<QueueDatabase> {
  const { default: pgModule } = await import('pg');
  // The process id in the name lets an operator (and the fault tests) find one instance's connections.
  const pool = new pgModule.Pool({ connectionString: url, max: 10, application_name: `dvs-queue-${process.pid}` });
  // A connection the server dropped while idle is replaced on the next query; the error must not end the process.
  pool.on('error', onError);
  const { rows } = await pool.query<{ schema: string }>('SELECT current_schema() AS schema');
  const db: QueueDatabase = {
    kind: 'postgres',
    engineSchema: engineSchemaFor(rows[0]?.schema ?? 'public'),
    engine: pgEngine(pool),
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      (await pool.query(sql, params as unknown[])).rows as T[],
    async transaction(work) {
      const client = await pool.connect();
      // A connection the server ends mid-transaction reports it on the client as well as to the query.
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <T>(sql: string, params?: readonly unknown[]) =>
            (await client.query(sql, params as unknown[])).rows as T[],
          engine: pgEngine(client),
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.off('error', onError);
        client.release();
      }
    },
    async exclusive(work) {
      // A session lock on a connection of its own, held while `work` runs on the others: a process that dies
      // meanwhile ends its session, and with it the lock.
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('SELECT pg_advisory_lock($1)', [ENGINE_SETUP_LOCK]);
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [ENGINE_SETUP_LOCK]).catch((err: Error) => (broken = err));
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
  try {
    await migrate(db);
  } catch (err) {
    await pool.end();
    throw err;
  }
  return db;
}

interface PgliteLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<{ rows: unknown[] }[]>;
}

const pgliteEngine = (db: PgliteLike): EngineDb => ({
  executeSql: async (text, values) =>
    values && values.length > 0 ? db.query(text, values) : ((await db.exec(text)).at(-1) ?? { rows: [] }),
});

async function openPglite(dataDir: string): Promise<QueueDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const lite = await PGlite.create(path.join(dataDir, PGLITE_DIR));
  const db: QueueDatabase = {
    kind: 'pglite',
    engineSchema: 'pgboss',
    engine: pgliteEngine(lite),
    query: async <T>(sql: string, params?: readonly unknown[]) => (await lite.query<T>(sql, params as unknown[])).rows,
    transaction: (work) =>
      lite.transaction((tx) =>
        work({
          query: async <T>(sql: string, params?: readonly unknown[]) =>
            (await tx.query<T>(sql, params as unknown[])).rows,
          engine: pgliteEngine(tx),
        }),
      ),
    // One process holds the embedded database: there is no other instance to wait for.
    exclusive: (work) => work(),
    close: () => lite.close(),
  };
  try {
    await migrate(db);
  } catch (err) {
    await lite.close();
    throw err;
  }
  return db;
}

/** True when the embedded queue has been created in the data dir (its unfinished batches resume at start). */
export const embeddedQueueExists = (dataDir: string): boolean => existsSync(path.join(dataDir, PGLITE_DIR));

export function openQueueDatabase(
  config: { databaseUrl: string | null; dataDir: string },
  onError: (err: Error) => void,
): Promise<QueueDatabase> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, onError) : openPglite(config.dataDir);
}
