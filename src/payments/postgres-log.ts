// The transparency log in the shared PostgreSQL ledger. Appending runs inside the commit transaction and first
// takes a transaction-scoped advisory lock, so issuers in any number of processes append one at a time: each
// reads the size only after the previous appender committed (READ COMMITTED gives every statement a fresh
// snapshot), so no index is taken twice or skipped, and the tree never forks.
import type pg from 'pg';
import {
  appendedNodes,
  appendSiblings,
  inOrderPosition,
  nodeKey,
  type NodeId,
  type NodeReader,
} from '../lib/merkle.ts';
import type { LogStore, TreeHeadRow } from './store.ts';

/** Any fixed number: it names the lock every appender takes (the migration lock is another). */
const LOG_APPEND_LOCK = 0x64_76_73_74;

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

interface RawHead {
  tree_size: string;
  root_hash: string;
  timestamp: string;
  signature: string;
}

const toHead = (r: RawHead): TreeHeadRow => ({
  treeSize: Number(r.tree_size),
  rootHash: r.root_hash,
  timestamp: r.timestamp,
  signature: r.signature,
});

async function size(db: Queryable): Promise<number> {
  // BIGINT arrives as a string: the driver will not guess at precision.
  const { rows } = await db.query<{ n: string }>('SELECT COALESCE(MAX(leaf_index) + 1, 0) AS n FROM log_entries');
  return Number(rows[0]!.n);
}

async function nodes(db: Queryable, ids: readonly NodeId[]): Promise<NodeReader> {
  const { rows } = await db.query<{ position: string; hash: Buffer }>(
    'SELECT position, hash FROM log_nodes WHERE position = ANY($1::bigint[])',
    [ids.map(inOrderPosition)],
  );
  const found = new Map(rows.map((r) => [Number(r.position), r.hash]));
  return (id) => {
    const hash = found.get(inOrderPosition(id));
    if (!hash) throw new RangeError(`the transparency log holds no node ${nodeKey(id)}`);
    return hash;
  };
}

/** Appends the certificate's leaf; call inside the transaction that stores the certificate. */
export async function appendToLog(client: pg.PoolClient, certificateId: string, leaf: Uint8Array): Promise<number> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_APPEND_LOCK]);
  const at = await size(client);
  const added = appendedNodes(at, leaf, await nodes(client, appendSiblings(at)));
  await client.query('INSERT INTO log_nodes (position, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])', [
    added.map((n) => inOrderPosition(n.id)),
    added.map((n) => n.hash),
  ]);
  await client.query('INSERT INTO log_entries (leaf_index, certificate_id) VALUES ($1, $2)', [at, certificateId]);
  return at;
}

export function postgresLog(pool: pg.Pool): LogStore {
  const head = async (treeSize: number) => {
    const { rows } = await pool.query<RawHead>('SELECT * FROM log_heads WHERE tree_size = $1', [treeSize]);
    return rows[0] ? toHead(rows[0]) : null;
  };
  return {
    logSize: () => size(pool),
    async logIndex(certificateId) {
      const { rows } = await pool.query<{ leaf_index: string }>(
        'SELECT leaf_index FROM log_entries WHERE certificate_id = $1',
        [certificateId],
      );
      return rows[0] ? Number(rows[0].leaf_index) : null;
    },
    logNodes: (ids) => nodes(pool, ids),
    logHead: head,
    async saveLogHead(h) {
      await pool.query(
        `INSERT INTO log_heads (tree_size, root_hash, timestamp, signature) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tree_size) DO NOTHING`,
        [h.treeSize, h.rootHash, h.timestamp, h.signature],
      );
      return (await head(h.treeSize))!;
    },
  };
}
