// The certificate transparency log as the service publishes it: signed tree heads, inclusion proofs and
// consistency proofs, computed from the perfect-subtree hashes the ledger keeps (a head or a proof reads
// O(log n) stored nodes). A head is signed once per size and kept: every later request, and every process
// sharing the database, serves the same signed head for that size.
import {
  consistencyRanges,
  inclusionRanges,
  nodeKey,
  nodesFor,
  rangeHash,
  rootRange,
  type LeafRange,
  type NodeId,
} from '../lib/merkle.ts';
import type { LogConsistency } from '../lib/schema-types/api/log-consistency.ts';
import type { LogInclusion } from '../lib/schema-types/api/log-inclusion.ts';
import type { LogStore } from '../payments/store.ts';
import { certificateTime } from '../signing/certificate.ts';
import type { SigningKeySource } from '../signing/key-store.ts';
import { signTreeHead, type TreeHead } from '../signing/tree-head.ts';

/** A request for a tree the log cannot give (larger than the log, or sizes out of order): the caller's to fix. */
export class LogRequestError extends Error {
  override name = 'LogRequestError';
}

export type { LogConsistency, LogInclusion, TreeHead };

/**
 * Nodes of this level and above (each the hash of 256 leaves or more) are kept in memory once read. A stored node
 * never changes: proofs read only nodes within the committed log, and the log only grows. A proof of a random leaf
 * needs one node per level, log2(n) in all, and its upper levels are the ones every proof shares; kept, a proof
 * asks the store for at most eight nodes a path at any size, where a million certificates asked twenty, on pages
 * the cache had long lost. A store that orders nodes in tree order (PostgreSQL's) finds those eight within 256
 * places of the leaf, on two or three pages. They cost about n / 128 entries (78,000 at ten million certificates).
 */
const KEPT_NODE_LEVEL = 8;

export class TransparencyLog {
  private readonly kept = new Map<string, Uint8Array>();

  constructor(
    private readonly store: LogStore,
    /** Heads are signed with the key current when they are first asked for (a live rotation included). */
    private readonly keys: Pick<SigningKeySource, 'current'>,
    private readonly now: () => Date = () => new Date(),
    private readonly keptLevel = KEPT_NODE_LEVEL,
  ) {}

  private async hashes(ranges: readonly LeafRange[]): Promise<Buffer[]> {
    if (ranges.length === 0) return [];
    const isKept = (id: NodeId) => id.level >= this.keptLevel;
    const missing = nodesFor(ranges).filter((id) => !isKept(id) || !this.kept.has(nodeKey(id)));
    const read = missing.length > 0 ? await this.store.logNodes(missing) : null;
    for (const id of missing) if (isKept(id)) this.kept.set(nodeKey(id), read!(id));
    return ranges.map((r) => rangeHash(r, (id) => (isKept(id) ? this.kept.get(nodeKey(id))! : read!(id))));
  }

  private async checkedSize(size: number | undefined, what: string): Promise<number> {
    const current = await this.store.logSize();
    if (size === undefined) return current;
    if (size > current) throw new LogRequestError(`${what} ${size} is larger than the log (${current} certificates)`);
    return size;
  }

  /** The signed head of the log at `size` (now when not given). */
  async head(size?: number): Promise<TreeHead> {
    const treeSize = await this.checkedSize(size, 'tree_size');
    const stored = await this.store.logHead(treeSize);
    if (stored) return toHead(stored);
    const [root] = await this.hashes([rootRange(treeSize)]);
    const head = signTreeHead(
      { tree_size: treeSize, root_hash: root!.toString('hex'), timestamp: certificateTime(this.now()) },
      await this.keys.current(),
    );
    // Another request or process may have signed this size meanwhile: the head stored first is the one served.
    return toHead(
      await this.store.saveLogHead({
        treeSize: head.tree_size,
        rootHash: head.root_hash,
        timestamp: head.timestamp,
        signature: head.signature,
      }),
    );
  }

  /** The inclusion proof of a certificate against the head at `treeSize` (now when not given); null when unlogged. */
  async inclusion(certificateId: string, treeSize?: number): Promise<LogInclusion | null> {
    const index = await this.store.logIndex(certificateId);
    if (index === null) return null;
    const head = await this.head(treeSize);
    if (index >= head.tree_size)
      throw new LogRequestError(
        `certificate ${certificateId} is leaf ${index}: it was appended after the tree of size ${head.tree_size}`,
      );
    const path = await this.hashes(inclusionRanges(index, head.tree_size));
    return {
      certificate_id: certificateId,
      leaf_index: index,
      tree_size: head.tree_size,
      inclusion_path: path.map((h) => h.toString('hex')),
      tree_head: head,
    };
  }

  /** The consistency proof from the tree of `from` certificates to the tree of `to`. */
  async consistency(from: number, to: number): Promise<LogConsistency> {
    if (from < 1) throw new LogRequestError('from must be at least 1: every log is consistent with the empty one');
    if (from > to) throw new LogRequestError(`from (${from}) is larger than to (${to})`);
    await this.checkedSize(to, 'to');
    const path = await this.hashes(consistencyRanges(from, to));
    return { from, to, consistency_path: path.map((h) => h.toString('hex')) };
  }
}

const toHead = (row: { treeSize: number; rootHash: string; timestamp: string; signature: string }): TreeHead => ({
  tree_size: row.treeSize,
  root_hash: row.rootHash,
  timestamp: row.timestamp,
  signature: row.signature,
});
