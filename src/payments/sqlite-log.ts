// The transparency log in the SQLite ledger. Appending runs inside the commit transaction, which already holds
// SQLite's write lock (its first statement is an update), so two processes sharing the file append one after
// the other: each leaf takes the next index, and no index is taken twice or skipped.
import type Database from 'better-sqlite3';
import { appendedNodes, appendSiblings, nodeKey, type NodeId, type NodeReader } from '../lib/merkle.ts';
import type { LogStore, TreeHeadRow } from './store.ts';

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

export interface SqliteLog extends LogStore {
  /** Appends the certificate's leaf; call inside the transaction that stores the certificate. */
  append: (certificateId: string, leaf: Uint8Array) => number;
}

export function sqliteLog(db: Database.Database): SqliteLog {
  const size = db.prepare('SELECT COALESCE(MAX(leaf_index) + 1, 0) FROM log_entries').pluck();
  const index = db.prepare('SELECT leaf_index FROM log_entries WHERE certificate_id = ?').pluck();
  const node = db.prepare('SELECT hash FROM log_nodes WHERE level = ? AND node_index = ?').pluck();
  const insertNode = db.prepare('INSERT INTO log_nodes (level, node_index, hash) VALUES (?, ?, ?)');
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
      for (const { id, hash } of appendedNodes(at, leaf, nodes(appendSiblings(at))))
        insertNode.run(id.level, id.index, hash);
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
