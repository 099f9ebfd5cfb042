// A whole Merkle tree in memory for the tests: every perfect subtree kept, as the ledger's tables keep them.
import { appendedNodes, nodeKey, rootHash, type NodeReader } from '../../src/lib/merkle.ts';

export class MemoryTree {
  private readonly nodes = new Map<string, Buffer>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  readonly read: NodeReader = (id) => {
    const hash = this.nodes.get(nodeKey(id));
    if (!hash) throw new RangeError(`no node ${nodeKey(id)} in a tree of ${this.count}`);
    return hash;
  };

  append(leaf: Uint8Array): number {
    const index = this.count;
    for (const { id, hash } of appendedNodes(index, leaf, this.read)) this.nodes.set(nodeKey(id), hash);
    this.count++;
    return index;
  }

  root(size = this.count): Buffer {
    return rootHash(size, this.read);
  }
}
