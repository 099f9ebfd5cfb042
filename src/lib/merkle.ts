// The Merkle tree of RFC 9162 section 2.1 (the hashing of RFC 6962): leaf hash SHA-256(0x00 || leaf), node
// hash SHA-256(0x01 || left || right), the tree hash MTH for any number of leaves, inclusion paths (2.1.3) and
// consistency proofs (2.1.4), and their verification algorithms (2.1.3.2, 2.1.4.2).
//
// A tree is read through the hashes of its perfect subtrees (2^level leaves starting at index * 2^level): an
// append-only store keeps those, so the hash of any subtree the RFC's recursion names is a right fold over at
// most log2(n) stored nodes, and no request rehashes the whole tree. This module is pure: it says which nodes
// it needs and computes from the ones it is given. Indices stay below 2^53 (plain numbers, no 32-bit shifts).
import { createHash } from 'node:crypto';

export const HASH_BYTES = 32;

const sha256 = (...parts: Uint8Array[]): Buffer<ArrayBuffer> => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

export const leafHash = (leaf: Uint8Array): Buffer => sha256(LEAF_PREFIX, leaf);
export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256(NODE_PREFIX, left, right);
/** MTH({}) = SHA-256() */
export const EMPTY_ROOT: Buffer = sha256();

/** The leaves [start, end). */
export interface LeafRange {
  start: number;
  end: number;
}

/** A perfect subtree: the 2^level leaves starting at index * 2^level. Level 0 is a leaf hash. */
export interface NodeId {
  level: number;
  index: number;
}

/** Reads a stored perfect-subtree hash; throws when the store lacks it (a bug, or a tree read past its size). */
export type NodeReader = (id: NodeId) => Uint8Array;

export const nodeKey = (id: NodeId): string => `${id.level}:${id.index}`;

/**
 * The node's place in the in-order walk of the tree (left half, node, right half): (2 * index + 1) * 2^level - 1,
 * a leaf at twice its index and every node between its two halves. A store ordered by it keeps each node within
 * 2^level places of the leaves it covers, so a proof's nodes in the lower levels, which no cache holds for long,
 * lie on a few neighbouring pages, where ordered by level they lie on one page per level.
 */
export const inOrderPosition = ({ level, index }: NodeId): number => (2 * index + 1) * 2 ** level - 1;

/** The largest power of two smaller than n (n > 1): where the RFC splits D[n]. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The ranges whose tree hashes form PATH(m, D[start:end]), nearest the leaf first. */
function pathRanges(m: number, start: number, end: number): LeafRange[] {
  if (end - start <= 1) return [];
  const k = splitPoint(end - start);
  return m - start < k
    ? [...pathRanges(m, start, start + k), { start: start + k, end }]
    : [...pathRanges(m, start + k, end), { start, end: start + k }];
}

/** The ranges whose tree hashes form SUBPROOF(m, D[start:end], b). */
function subproofRanges(m: number, start: number, end: number, b: boolean): LeafRange[] {
  if (m === end) return b ? [] : [{ start, end }];
  const k = splitPoint(end - start);
  return m - start <= k
    ? [...subproofRanges(m, start, start + k, b), { start: start + k, end }]
    : [...subproofRanges(m, start + k, end, false), { start, end: start + k }];
}

function assertSizes(ok: boolean, what: string): void {
  if (!ok) throw new RangeError(what);
}

/** The subtrees of the inclusion path of leaf m in a tree of n leaves (section 2.1.3.1). */
export function inclusionRanges(m: number, n: number): LeafRange[] {
  assertSizes(Number.isSafeInteger(m) && Number.isSafeInteger(n) && 0 <= m && m < n, `no leaf ${m} in a tree of ${n}`);
  return pathRanges(m, 0, n);
}

/** The subtrees of the consistency proof from m to n leaves, 0 < m <= n (section 2.1.4.1; empty when m = n). */
export function consistencyRanges(m: number, n: number): LeafRange[] {
  assertSizes(
    Number.isSafeInteger(m) && Number.isSafeInteger(n) && 0 < m && m <= n,
    `no consistency proof from ${m} to ${n} leaves`,
  );
  return subproofRanges(m, 0, n, true);
}

/**
 * The perfect subtrees that make up a range, left to right, largest first. Every range the RFC's recursion
 * names starts at a multiple of a power of two at least as large as itself, so its tree hash is the right fold
 * of these.
 */
export function coverOf({ start, end }: LeafRange): NodeId[] {
  const out: NodeId[] = [];
  let at = start;
  while (at < end) {
    let size = 1;
    let level = 0;
    while (at % (size * 2) === 0 && at + size * 2 <= end) {
      size *= 2;
      level++;
    }
    out.push({ level, index: at / size });
    at += size;
  }
  return out;
}

/** MTH(D[start:end]) from the stored subtree hashes. */
export function rangeHash(range: LeafRange, read: NodeReader): Buffer {
  const nodes = coverOf(range).map(read);
  if (nodes.length === 0) return EMPTY_ROOT;
  let acc: Buffer = Buffer.from(nodes[nodes.length - 1]!);
  for (let i = nodes.length - 2; i >= 0; i--) acc = nodeHash(nodes[i]!, acc);
  return acc;
}

/** Every stored node the given ranges are computed from, once each. */
export function nodesFor(ranges: readonly LeafRange[]): NodeId[] {
  const seen = new Map<string, NodeId>();
  for (const r of ranges) for (const id of coverOf(r)) seen.set(nodeKey(id), id);
  return [...seen.values()];
}

export const rootRange = (size: number): LeafRange => ({ start: 0, end: size });

/**
 * The nodes a new leaf at `index` completes: the leaf itself, then each parent whose left half was complete.
 * `left(id)` reads the already stored left siblings.
 */
export function appendedNodes(index: number, leaf: Uint8Array, left: NodeReader): { id: NodeId; hash: Buffer }[] {
  const out = [{ id: { level: 0, index }, hash: leafHash(leaf) }];
  let level = 0;
  let at = index;
  while (at % 2 === 1) {
    const sibling = left({ level, index: at - 1 });
    const hash = nodeHash(sibling, out[out.length - 1]!.hash);
    level++;
    at = (at - 1) / 2;
    out.push({ id: { level, index: at }, hash });
  }
  return out;
}

/** The left siblings appendedNodes(index) reads. */
export function appendSiblings(index: number): NodeId[] {
  const out: NodeId[] = [];
  let level = 0;
  let at = index;
  while (at % 2 === 1) {
    out.push({ level, index: at - 1 });
    level++;
    at = (at - 1) / 2;
  }
  return out;
}

const half = (x: number) => Math.floor(x / 2);
const lsb = (x: number) => x % 2 === 1;
const sameHash = (a: Uint8Array, b: Uint8Array) => a.length === HASH_BYTES && Buffer.from(a).equals(b);

export interface InclusionInput {
  index: number;
  size: number;
  leafHash: Uint8Array;
  path: readonly Uint8Array[];
  root: Uint8Array;
}

/** RFC 9162 section 2.1.3.2, step by step. */
export function verifyInclusion({ index, size, leafHash: hash, path, root }: InclusionInput): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  if (hash.length !== HASH_BYTES || path.some((p) => p.length !== HASH_BYTES)) return false;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(hash);
  for (const p of path) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && sameHash(root, r);
}

export interface ConsistencyInput {
  first: number;
  second: number;
  path: readonly Uint8Array[];
  firstRoot: Uint8Array;
  secondRoot: Uint8Array;
}

function isPowerOfTwo(n: number): boolean {
  let p = 1;
  while (p < n) p *= 2;
  return p === n;
}

/**
 * RFC 9162 section 2.1.4.2, step by step. Equal sizes are consistent when the roots are equal and the proof
 * empty (the RFC defines proofs for first < second only).
 */
export function verifyConsistency({ first, second, path, firstRoot, secondRoot }: ConsistencyInput): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 1 || first > second) return false;
  if (firstRoot.length !== HASH_BYTES || secondRoot.length !== HASH_BYTES) return false;
  if (path.some((p) => p.length !== HASH_BYTES)) return false;
  if (first === second) return path.length === 0 && sameHash(firstRoot, secondRoot);
  if (path.length === 0) return false;
  const proof = isPowerOfTwo(first) ? [firstRoot, ...path] : [...path];
  let fn = first - 1;
  let sn = second - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Buffer = Buffer.from(proof[0]!);
  let sr: Buffer = Buffer.from(proof[0]!);
  for (const c of proof.slice(1)) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && sameHash(firstRoot, fr) && sameHash(secondRoot, sr);
}

/** The proofs and roots of a tree read through `read`. */
export const inclusionPath = (m: number, n: number, read: NodeReader): Buffer[] =>
  inclusionRanges(m, n).map((r) => rangeHash(r, read));
export const consistencyPath = (m: number, n: number, read: NodeReader): Buffer[] =>
  consistencyRanges(m, n).map((r) => rangeHash(r, read));
export const rootHash = (size: number, read: NodeReader): Buffer => rangeHash(rootRange(size), read);
