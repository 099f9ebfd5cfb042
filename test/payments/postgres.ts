// PostgreSQL for the ledger tests: the local server (127.0.0.1:5432, database `test`), one fresh schema per
// run so runs never see each other's rows, committing without waiting for the disk. Tests skip, saying so, when no server answers.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { engineSchemaFor } from '../../src/batches/queue-database.ts';

const SERVER = process.env.DVS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestSchema {
  /** A DVS_DATABASE_URL whose search_path is the fresh schema. */
  url: string;
  schema: string;
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

export async function freshSchema(): Promise<TestSchema> {
  const schema = `dvs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.query(`SET search_path TO ${schema}`);
  const url = new URL(SERVER);
  // Tests need no crash durability, and a WAL flush per commit is the suite's most frequent fsync: it slows the
  // suite and whatever else shares the disk (a ledger bench on the same server keeps its own setting).
  url.searchParams.set('options', `-c search_path=${schema} -c synchronous_commit=off`);
  return {
    url: url.toString(),
    schema,
    query: async <T extends pg.QueryResultRow>(sql: string, params?: unknown[]) =>
      (await admin.query<T>(sql, params)).rows,
    async drop() {
      // The job engine's schema too, which a service on this schema made beside it (src/batches/queue-database.ts).
      await admin.query(`DROP SCHEMA IF EXISTS ${engineSchemaFor(schema)} CASCADE`);
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
