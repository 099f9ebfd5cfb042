// A ledger file as an older version left it, to test what a migration does to it.
import Database from 'better-sqlite3';
import { migrations } from '../../src/payments/migrations.ts';
import { attachTree } from '../../src/payments/sqlite-log.ts';

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
