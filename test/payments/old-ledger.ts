// A ledger as an older version left it, to test what a migration does to it.
import Database from 'better-sqlite3';
import { migrations } from '../../src/payments/migrations.ts';
import { attachTree } from '../../src/payments/sqlite-log.ts';
import type { TestSchema } from './postgres.ts';

/** Opens `file` with the migrations before `version` applied and recorded, the log's tree file attached. */
export function ledgerBefore(file: string, version: number): Database.Database {
  const db = new Database(file);
  attachTree(db, file);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const m of migrations('sqlite').filter((m) => m.version < version)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
  }
  return db;
}

/** Fills `schema` with the PostgreSQL migrations before `version`, applied and recorded as the service records them. */
export async function postgresLedgerBefore(schema: TestSchema, version: number): Promise<void> {
  await schema.query(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
  );
  for (const m of migrations('postgres').filter((m) => m.version < version)) {
    await schema.query(m.sql);
    await schema.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
  }
}
