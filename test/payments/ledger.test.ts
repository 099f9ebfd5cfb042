// The ledger contract on SQLite (always) and on PostgreSQL (when a server answers on 127.0.0.1:5432).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { inOrderPosition, nodeKey, type NodeId } from '../../src/lib/merkle.ts';
import { openPostgresStore } from '../../src/payments/postgres-store.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import { migrations } from '../../src/payments/migrations.ts';
import { ledgerContract } from './ledger-contract.ts';
import { ledgerBefore, postgresLedgerBefore } from './old-ledger.ts';
import { freshSchema, postgresReachable } from './postgres.ts';

ledgerContract('SQLite', { evidencePruning: 'weeks' }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-ledger-'));
  const file = path.join(dir, 'ledger.sqlite');
  return {
    open: async () => openSqliteStore(file),
    async dump() {
      const db = new Database(file, { readonly: true });
      try {
        const rows = ['tokens', 'certificates', 'schema_migrations'].map((t) => db.prepare(`SELECT * FROM ${t}`).all());
        return JSON.stringify(rows) + readFileSync(file, 'latin1');
      } finally {
        db.close();
      }
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const pgUp = await postgresReachable();
if (!pgUp)
  console.log(
    'PostgreSQL not reachable: skipped (the PostgreSQL ledger contract needs a server on 127.0.0.1:5432, database test)',
  );

describe.skipIf(!pgUp)('PostgreSQL', () => {
  ledgerContract('PostgreSQL', { evidencePruning: 'rows' }, async () => {
    const schema = await freshSchema();
    return {
      open: () => openPostgresStore(schema.url),
      async dump() {
        const rows = [];
        for (const t of ['tokens', 'certificates', 'schema_migrations'])
          rows.push(await schema.query(`SELECT * FROM ${t}`));
        return JSON.stringify(rows);
      },
      cleanup: () => schema.drop(),
    };
  });

  it('migrates a new database once when several processes start at the same time', async () => {
    const schema = await freshSchema();
    try {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(schema.url)));
      await Promise.all(stores.map((s) => s.close()));
      const applied = await schema.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(applied.map((r) => r.version)).toEqual(migrations('postgres').map((m) => m.version));
    } finally {
      await schema.drop();
    }
  });

  it('moves the log of a ledger made before migration 16 into tree order, every node still read by its id', async () => {
    const schema = await freshSchema();
    try {
      await postgresLedgerBefore(schema, 16);
      // The nodes of a tree of 11 leaves, each hash naming its node.
      const ids = [0, 1, 2, 3].flatMap((level) =>
        Array.from({ length: 11 >> level }, (_, index) => ({ level, index })),
      );
      const hashOf = (id: NodeId) => createHash('sha256').update(nodeKey(id)).digest();
      for (const id of ids)
        await schema.query('INSERT INTO log_nodes (level, node_index, hash) VALUES ($1, $2, $3)', [
          id.level,
          id.index,
          hashOf(id),
        ]);
      const store = await openPostgresStore(schema.url);
      try {
        const read = await store.logNodes(ids);
        for (const id of ids) expect(Buffer.from(read(id))).toEqual(hashOf(id));
        const stored = await schema.query<{ position: string }>('SELECT position FROM log_nodes ORDER BY position');
        expect(stored.map((r) => Number(r.position))).toEqual(ids.map(inOrderPosition).sort((a, b) => a - b));
      } finally {
        await store.close();
      }
    } finally {
      await schema.drop();
    }
  });
});

describe('SQLite', () => {
  it('moves the evidence of a ledger made before migration 10 into a table of its own, readable until expiry', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-ledger-'));
    try {
      const file = path.join(dir, 'ledger.sqlite');
      const db = ledgerBefore(file, 10);
      const insert = db.prepare(
        'INSERT INTO certificates (id, domain, body, created_at, expires_at, evidence) VALUES (?, ?, ?, 0, ?, ?)',
      );
      insert.run('dvc_kept', 'a.test', '{}', 2_000, Buffer.from('seen'));
      insert.run('dvc_none', 'b.test', '{}', 2_000, null);
      // A certificate from before expiry was recorded (migration 2): its evidence never expires.
      insert.run('dvc_ageless', 'c.test', '{}', null, Buffer.from('always'));
      db.close();

      const store = openSqliteStore(file);
      try {
        expect(await store.evidence('dvc_kept', 1_000)).toEqual(Buffer.from('seen'));
        expect(await store.evidence('dvc_kept', 2_000)).toBeNull();
        expect(await store.evidence('dvc_none', 1_000)).toBeNull();
        // Pruned with its week of expiry (migration 015's files), which ends on Monday 1970-01-05.
        expect(await store.pruneEvidence(Date.parse('1970-01-05T00:00:00Z') - 1, 10)).toBe(0);
        expect(await store.pruneEvidence(Date.parse('1970-01-05T00:00:00Z'), 10)).toBe(1);
        expect(await store.evidence('dvc_ageless', 9_000_000)).toEqual(Buffer.from('always'));
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps its file in WAL mode with the schema recorded as migrated', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-ledger-'));
    try {
      const file = path.join(dir, 'ledger.sqlite');
      await openSqliteStore(file).close();
      await openSqliteStore(file).close();
      const db = new Database(file, { readonly: true });
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(
        migrations('sqlite').map((m) => m.version),
      );
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
