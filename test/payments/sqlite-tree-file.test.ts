// The SQLite ledger keeps its log's tree in a file of its own (src/payments/sqlite-log.ts). The tree is derived
// from the leaves, so whatever state a crash or an operator leaves it in, opening the ledger makes it agree with
// the leaves again: removed, one commit ahead, one commit behind, or still inside the ledger file of an older
// version. Each case is checked against a tree built in memory from the leaves.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyInclusion, leafHash } from '../../src/lib/merkle.ts';
import { treeFileOf } from '../../src/payments/sqlite-log.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import { TransparencyLog } from '../../src/service/transparency-log.ts';
import { fixedKey } from '../signing/fixtures.ts';
import { MemoryTree } from '../lib/memory-tree.ts';
import { commitOne, keySource, ledgerOver } from './log-fixtures.ts';

const key = await fixedKey();
let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-tree-'));
  file = path.join(dir, 'ledger.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Commits `labels` in order through a fresh store; returns the bodies, the log's leaves. */
async function commitAll(labels: readonly string[]): Promise<string[]> {
  const ledger = ledgerOver(openSqliteStore(file));
  try {
    const bodies: string[] = [];
    for (const label of labels) bodies.push((await commitOne(ledger, label)).body);
    return bodies;
  } finally {
    await ledger.close();
  }
}

/** Opens the ledger again and checks its head and every inclusion proof against a tree built from `bodies`. */
async function expectTreeOf(bodies: readonly string[]): Promise<void> {
  const ledger = ledgerOver(openSqliteStore(file));
  try {
    const expected = new MemoryTree();
    for (const b of bodies) expected.append(Buffer.from(b, 'utf8'));
    const log = new TransparencyLog(ledger.log, keySource(key));
    const head = await log.head();
    expect(head).toMatchObject({ tree_size: bodies.length, root_hash: expected.root().toString('hex') });
    const raw = new Database(file, { readonly: true });
    const ids = raw.prepare('SELECT certificate_id FROM log_entries ORDER BY leaf_index').pluck().all() as string[];
    raw.close();
    for (const [index, body] of bodies.entries()) {
      const proof = (await log.inclusion(ids[index]!))!;
      expect(
        verifyInclusion({
          index,
          size: bodies.length,
          leafHash: leafHash(Buffer.from(body, 'utf8')),
          path: proof.inclusion_path.map((h) => Buffer.from(h, 'hex')),
          root: expected.root(),
        }),
        `leaf ${index}`,
      ).toBe(true);
    }
  } finally {
    await ledger.close();
  }
}

/** Runs `sql` on the ledger file with the tree attached, as a crash or an older version would have left them. */
function tamper(sql: string): void {
  const db = new Database(file);
  db.prepare('ATTACH DATABASE ? AS tree').run(treeFileOf(file));
  db.exec(sql);
  db.close();
}

const labels = Array.from({ length: 11 }, (_, i) => `leaf-${i}`);

describe('the SQLite log tree file', () => {
  it('sits beside the ledger file and holds every node and leaf index, the ledger file no node', async () => {
    const bodies = await commitAll(labels);
    expect(existsSync(treeFileOf(file))).toBe(true);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'log_nodes'").all()).toEqual([]);
    db.close();
    const tree = new Database(treeFileOf(file), { readonly: true });
    // One stored hash per perfect subtree: 2n - popcount(n).
    expect(tree.prepare('SELECT count(*) FROM log_nodes').pluck().get()).toBe(2 * 11 - 3);
    expect(tree.prepare('SELECT count(*) FROM leaf_index').pluck().get()).toBe(11);
    tree.close();
    await expectTreeOf(bodies);
  });

  it('is rebuilt from the leaves when it was removed', async () => {
    const bodies = await commitAll(labels);
    for (const suffix of ['', '-wal', '-shm']) rmSync(treeFileOf(file) + suffix, { force: true });
    await expectTreeOf(bodies);
  });

  it('drops what it holds beyond the leaves (the ledger file did not commit the last certificate)', async () => {
    const bodies = await commitAll(labels);
    tamper("DELETE FROM log_entries WHERE leaf_index = 10; DELETE FROM certificates WHERE body LIKE '%leaf-10%'");
    await expectTreeOf(bodies.slice(0, 10));
    // The next certificate takes the freed index, and the tree agrees.
    bodies[10] = (await commitAll(['after-crash']))[0]!;
    await expectTreeOf(bodies);
  });

  it('catches up with the leaves when it is behind (its file did not commit the last append)', async () => {
    const bodies = await commitAll(labels);
    tamper('DELETE FROM tree.log_nodes WHERE (node_index + 1) << level > 9');
    await expectTreeOf(bodies);
  });

  it('fills its certificate index from the leaves when the file was made before the index', async () => {
    const bodies = await commitAll(labels);
    tamper('DELETE FROM tree.leaf_index');
    await expectTreeOf(bodies);
    const tree = new Database(treeFileOf(file), { readonly: true });
    expect(tree.prepare('SELECT count(*) FROM leaf_index').pluck().get()).toBe(11);
    tree.close();
  });

  it("takes over the nodes of a ledger made before it, from the ledger file's own table", async () => {
    const bodies = await commitAll(labels);
    tamper(`
      CREATE TABLE main.log_nodes (level INTEGER NOT NULL, node_index INTEGER NOT NULL, hash BLOB NOT NULL,
        PRIMARY KEY (level, node_index)) WITHOUT ROWID;
      INSERT INTO main.log_nodes SELECT * FROM tree.log_nodes;
      UPDATE main.log_nodes SET hash = zeroblob(32) WHERE level = 3 AND node_index = 0;
      DELETE FROM main.schema_migrations WHERE version = 13`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(treeFileOf(file) + suffix, { force: true });
    // The nodes are the ledger file's own, moved and not rebuilt: a hash spoiled there (the root reads the subtree of
    // leaves 0-7) shows in the root.
    const ledger = ledgerOver(openSqliteStore(file));
    const head = await new TransparencyLog(ledger.log, keySource(key)).head();
    await ledger.close();
    const expected = new MemoryTree();
    for (const b of bodies) expected.append(Buffer.from(b, 'utf8'));
    expect(head.tree_size).toBe(11);
    expect(head.root_hash).not.toBe(expected.root().toString('hex'));
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'log_nodes'").all()).toEqual([]);
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBeGreaterThanOrEqual(13);
    db.close();
  });
});
