// The transparency log in the SQLite ledger. Appending runs inside the commit transaction, which already holds
// SQLite's write lock (its first statement is an update), so two processes sharing the file append one after
// the other: each leaf takes the next index, and no index is taken twice or skipped.
//
// The leaves' order (log_entries) stays in the ledger file with the certificates; what proofs read lives in a
// file of its own, attached as `tree`: the node hashes, and a copy of the leaves' order keyed by certificate id. A
// proof reads about twenty nodes spread over the whole tree, and in one file with the certificates their pages
// were pushed out of every cache by the bodies written since (a million certificates is 60 GB of bodies against
// 90 MB of nodes): an inclusion proof at a million leaves took four times its time at ten thousand. An attached
// file has a page cache of its own that only the log fills (at a million, a consistency proof took 1.75x its time
// at ten thousand with the nodes there; an inclusion proof 3.3x, for its leaf-index lookup in the ledger file,
// which the copy serves now). Both are derived from the ledger, so the tree file can always be made again from it
// (reconcileTree).
import type Database from 'better-sqlite3';
import { appendedNodes, appendSiblings, nodeKey, type NodeId, type NodeReader } from '../lib/merkle.ts';
import type { LogStore, TreeHeadRow } from './store.ts';

/** The tree file's cache ceiling: about 1.7 million leaves' nodes and index entries, read in at open and as written. */
const TREE_CACHE_KIB = 256 * 1024;
const REBUILD_BATCH = 1_000;

interface RawHead {
  tree_size: number;
  root_hash: string;
  timestamp: string;
  signature: string;
}

const toHead = (r: RawHead): TreeHeadRow => ({
  treeSize: r.tree_size,
  rootHash: r.root_hash,
  timestamp: r.timestamp,
  signature: r.signature,
});

function readerOver(found: Map<string, Buffer>): NodeReader {
  return (id) => {
    const hash = found.get(nodeKey(id));
    if (!hash) throw new RangeError(`the transparency log holds no node ${nodeKey(id)}`);
    return hash;
  };
}

/** The tree file beside a ledger file (`ledger.sqlite` -> `ledger-tree.sqlite`). */
export const treeFileOf = (ledgerFile: string): string =>
  ledgerFile === ':memory:' ? ':memory:' : `${ledgerFile.replace(/\.sqlite$/, '')}-tree.sqlite`;

/** Attaches the tree file as `tree`; call before the migrations, which move the nodes of older ledgers into it. */
export function attachTree(db: Database.Database, ledgerFile: string): void {
  db.prepare('ATTACH DATABASE ? AS tree').run(treeFileOf(ledgerFile));
  db.pragma('tree.journal_mode = WAL');
  db.pragma('tree.synchronous = NORMAL');
  db.pragma(`tree.cache_size = -${TREE_CACHE_KIB}`);
  db.exec(`CREATE TABLE IF NOT EXISTS tree.log_nodes (
    level       INTEGER NOT NULL,
    node_index  INTEGER NOT NULL,
    hash        BLOB NOT NULL,
    PRIMARY KEY (level, node_index)
  ) WITHOUT ROWID`);
  // Always the prefix [0, n) of log_entries (written in leaf order, cut back only from the end), so its row count
  // says how far it reaches; no index on leaf_index is needed for that.
  db.exec(`CREATE TABLE IF NOT EXISTS tree.leaf_index (
    certificate_id  TEXT PRIMARY KEY,
    leaf_index      INTEGER NOT NULL
  ) WITHOUT ROWID`);
}

/** Writes what the tree file holds of a new leaf at `at`: the nodes it completes, and its index entry. */
function treeWriter(db: Database.Database): (at: number, certificateId: string, leaf: Uint8Array) => void {
  const node = db.prepare('SELECT hash FROM tree.log_nodes WHERE level = ? AND node_index = ?').pluck();
  const insertNode = db.prepare('INSERT INTO tree.log_nodes (level, node_index, hash) VALUES (?, ?, ?)');
  const insertIndex = db.prepare('INSERT INTO tree.leaf_index (certificate_id, leaf_index) VALUES (?, ?)');
  const siblings = new Map<string, Buffer>();
  return (at, certificateId, leaf) => {
    siblings.clear();
    for (const id of appendSiblings(at)) siblings.set(nodeKey(id), node.get(id.level, id.index) as Buffer);
    for (const { id, hash } of appendedNodes(at, leaf, readerOver(siblings))) insertNode.run(id.level, id.index, hash);
    insertIndex.run(certificateId, at);
  };
}

/**
 * Reads every page of the tree file into its cache (up to the ceiling), so that proofs find what they read in
 * memory from the first request: the cache otherwise holds only the pages read or written since the ledger was
 * opened, and a proof of an old certificate reads pages nobody has read since. About 150 MB and a fraction of a
 * second per million certificates. Another connection's commit to the tree file drops the cache (SQLite's rule in
 * WAL mode).
 */
export function warmTree(db: Database.Database): void {
  db.prepare('SELECT sum(length(hash)) FROM tree.log_nodes').pluck().get();
  db.prepare('SELECT sum(leaf_index) FROM tree.leaf_index').pluck().get();
}

/**
 * Brings the tree level with the log's leaves, inside the caller's write transaction. The two files commit one
 * after the other (SQLite makes a transaction over attached WAL files atomic per file only), so a crash between
 * them leaves the tree one commit behind or ahead; a removed tree file is rebuilt whole.
 */
export function reconcileTree(db: Database.Database): void {
  const leaves = db.prepare('SELECT COALESCE(MAX(leaf_index) + 1, 0) FROM main.log_entries').pluck().get() as number;
  const hashed = db
    .prepare('SELECT COALESCE(MAX(node_index) + 1, 0) FROM tree.log_nodes WHERE level = 0')
    .pluck()
    .get() as number;
  if (hashed > leaves) db.prepare('DELETE FROM tree.log_nodes WHERE (node_index + 1) << level > ?').run(leaves);
  // The index entries commit with the nodes, so they reach as far as the nodes do, except in a tree file made before
  // they existed; they are brought to that reach here, and grow with the nodes below.
  const reach = Math.min(hashed, leaves);
  const indexed = db.prepare('SELECT count(*) FROM tree.leaf_index').pluck().get() as number;
  if (indexed > reach) db.prepare('DELETE FROM tree.leaf_index WHERE leaf_index >= ?').run(reach);
  else
    db.prepare(
      `INSERT INTO tree.leaf_index (certificate_id, leaf_index)
       SELECT certificate_id, leaf_index FROM main.log_entries WHERE leaf_index >= ? AND leaf_index < ?`,
    ).run(indexed, reach);
  const write = treeWriter(db);
  const bodies = db.prepare(`
    SELECT e.leaf_index AS at, e.certificate_id AS id, c.body
    FROM main.log_entries e JOIN main.certificates c ON c.id = e.certificate_id
    WHERE e.leaf_index >= ? AND e.leaf_index < ? ORDER BY e.leaf_index`);
  // A batch at a time: the statement must be done reading before the tree is written on the same connection.
  for (let from = hashed; from < leaves; from += REBUILD_BATCH) {
    const batch = bodies.all(from, Math.min(leaves, from + REBUILD_BATCH)) as {
      at: number;
      id: string;
      body: string;
    }[];
    for (const { at, id, body } of batch) write(at, id, Buffer.from(body, 'utf8'));
  }
}

export interface SqliteLog extends LogStore {
  /** Appends the certificate's leaf; call inside the transaction that stores the certificate. */
  append: (certificateId: string, leaf: Uint8Array) => number;
}

export function sqliteLog(db: Database.Database): SqliteLog {
  const size = db.prepare('SELECT COALESCE(MAX(leaf_index) + 1, 0) FROM log_entries').pluck();
  const index = db.prepare('SELECT leaf_index FROM tree.leaf_index WHERE certificate_id = ?').pluck();
  const node = db.prepare('SELECT hash FROM tree.log_nodes WHERE level = ? AND node_index = ?').pluck();
  const writeTree = treeWriter(db);
  const insertEntry = db.prepare('INSERT INTO log_entries (leaf_index, certificate_id) VALUES (?, ?)');
  const head = db.prepare('SELECT * FROM log_heads WHERE tree_size = ?');
  const insertHead = db.prepare(
    'INSERT INTO log_heads (tree_size, root_hash, timestamp, signature) VALUES (?, ?, ?, ?) ON CONFLICT (tree_size) DO NOTHING',
  );

  const nodes = (ids: readonly NodeId[]): NodeReader => {
    const found = new Map<string, Buffer>();
    for (const id of ids) {
      const hash = node.get(id.level, id.index) as Buffer | undefined;
      if (hash) found.set(nodeKey(id), hash);
    }
    return readerOver(found);
  };

  return {
    append(certificateId, leaf) {
      const at = size.get() as number;
      writeTree(at, certificateId, leaf);
      insertEntry.run(at, certificateId);
      return at;
    },
    logSize: async () => size.get() as number,
    logIndex: async (certificateId) => (index.get(certificateId) as number | undefined) ?? null,
    logNodes: async (ids) => nodes(ids),
    logHead: async (treeSize) => {
      const r = head.get(treeSize) as RawHead | undefined;
      return r ? toHead(r) : null;
    },
    saveLogHead: async (h) => {
      insertHead.run(h.treeSize, h.rootHash, h.timestamp, h.signature);
      return toHead(head.get(h.treeSize) as RawHead);
    },
  };
}
