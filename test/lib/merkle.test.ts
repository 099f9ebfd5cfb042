// The RFC 9162 section 2.1 Merkle tree: the published reference vectors, then properties over random trees.
//
// Vectors: transparency-dev/merkle (the successor of certificate-transparency-go's merkletree package),
// proof/verify_test.go at commit 02194e9afb6c1d95b5381350007963aa70fff472: the eight leaf inputs, the root of
// every tree of 1 to 8 of them, and inclusion and consistency proofs (leaf numbers there are 1-based; here
// they are converted to 0-based indices). The inputs and expected hashes are facts transcribed as data.
import { createHash } from 'node:crypto';
import { fc, test as property } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  appendSiblings,
  consistencyPath,
  EMPTY_ROOT,
  inclusionPath,
  inOrderPosition,
  leafHash,
  nodesFor,
  consistencyRanges,
  inclusionRanges,
  verifyConsistency,
  verifyInclusion,
} from '../../src/lib/merkle.ts';
import { MemoryTree } from './memory-tree.ts';

const h = (hex: string) => Buffer.from(hex, 'hex');

const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  h,
);

const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(h);

/** [0-based leaf index, tree size, path]. */
const INCLUSION: [number, number, string[]][] = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];

/** [first size, second size, proof]. */
const CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];

function treeOf(leaves: readonly Uint8Array[]): MemoryTree {
  const tree = new MemoryTree();
  for (const leaf of leaves) tree.append(leaf);
  return tree;
}

const hex = (bs: Buffer[]) => bs.map((b) => b.toString('hex'));

describe('RFC 6962 / 9162 reference vectors (transparency-dev/merkle)', () => {
  const tree = treeOf(LEAVES);

  it('hashes the empty tree, a leaf with 0x00 and a node with 0x01', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // A one-leaf tree's root is its leaf hash: SHA-256(0x00 || leaf).
    expect(leafHash(LEAVES[0]!)).toEqual(ROOTS[0]);
    expect(leafHash(LEAVES[1]!)).toEqual(createHash('sha256').update(h('0000')).digest());
  });

  it('gives the published root of every tree of 1 to 8 leaves', () => {
    expect(ROOTS.map((_, i) => tree.root(i + 1))).toEqual(ROOTS);
  });

  it.each(INCLUSION)('builds and verifies the inclusion path of leaf %i in %i', (index, size, path) => {
    expect(hex(inclusionPath(index, size, tree.read))).toEqual(path);
    const input = { index, size, leafHash: leafHash(LEAVES[index]!), path: path.map(h), root: ROOTS[size - 1]! };
    expect(verifyInclusion(input)).toBe(true);
    expect(verifyInclusion({ ...input, index: index + 1 })).toBe(false);
    expect(verifyInclusion({ ...input, size: size * 2 })).toBe(false);
    expect(verifyInclusion({ ...input, path: [...input.path, input.root] })).toBe(false);
    expect(verifyInclusion({ ...input, root: EMPTY_ROOT })).toBe(false);
  });

  it.each(CONSISTENCY)('builds and verifies the consistency proof from %i to %i', (first, second, path) => {
    expect(hex(consistencyPath(first, second, tree.read))).toEqual(path);
    const input = { first, second, path: path.map(h), firstRoot: ROOTS[first - 1]!, secondRoot: ROOTS[second - 1]! };
    expect(verifyConsistency(input)).toBe(true);
    if (first === second) return;
    expect(verifyConsistency({ ...input, path: [] })).toBe(false);
    expect(verifyConsistency({ ...input, firstRoot: input.secondRoot, secondRoot: input.firstRoot })).toBe(false);
    expect(verifyConsistency({ ...input, first: first + 1 })).toBe(false);
    expect(verifyConsistency({ ...input, path: input.path.slice(0, -1) })).toBe(false);
  });

  it('refuses sizes the proofs are not defined for', () => {
    expect(() => inclusionRanges(3, 3)).toThrow(RangeError);
    expect(() => consistencyRanges(0, 3)).toThrow(RangeError);
    expect(() => consistencyRanges(4, 3)).toThrow(RangeError);
    const root = ROOTS[0]!;
    expect(verifyInclusion({ index: 0, size: 0, leafHash: root, path: [], root })).toBe(false);
    expect(verifyConsistency({ first: 2, second: 1, path: [], firstRoot: root, secondRoot: root })).toBe(false);
    expect(verifyConsistency({ first: 1, second: 1, path: [root], firstRoot: root, secondRoot: root })).toBe(false);
  });
});

/** A bit of one of the hashes flipped (which hash and which bit chosen by fast-check). */
function flipped(hashes: readonly Buffer[], which: number, bit: number): Buffer[] {
  const out = hashes.map((b) => Buffer.from(b));
  const target = out[which % out.length]!;
  target[Math.floor(bit / 8) % target.length]! ^= 1 << (bit % 8);
  return out;
}

const leafList = fc.array(fc.uint8Array({ maxLength: 24 }), { minLength: 1, maxLength: 300 });

describe('every proof of a random tree verifies, and no proof with a flipped bit does', () => {
  property.prop([leafList, fc.nat(), fc.nat(), fc.nat(255)], { numRuns: 150 })(
    'inclusion',
    (leaves, pick, which, bit) => {
      const tree = treeOf(leaves);
      const size = 1 + (pick % tree.size);
      const index = pick % size;
      const path = inclusionPath(index, size, tree.read);
      const input = { index, size, leafHash: leafHash(leaves[index]!), path, root: tree.root(size) };
      expect(verifyInclusion(input)).toBe(true);
      // Every hash the verifier is handed: the leaf, each path element, the root.
      const all = [input.leafHash, ...path, input.root];
      const bad = flipped(all, which, bit);
      expect(verifyInclusion({ ...input, leafHash: bad[0]!, path: bad.slice(1, -1), root: bad[bad.length - 1]! })).toBe(
        false,
      );
    },
  );

  property.prop([leafList, fc.nat(), fc.nat(), fc.nat(), fc.nat(255)], { numRuns: 150 })(
    'consistency',
    (leaves, a, b, which, bit) => {
      const tree = treeOf(leaves);
      const second = 1 + (a % tree.size);
      const first = 1 + (b % second);
      const path = consistencyPath(first, second, tree.read);
      const input = { first, second, path, firstRoot: tree.root(first), secondRoot: tree.root(second) };
      expect(verifyConsistency(input)).toBe(true);
      const all = [input.firstRoot, ...path, input.secondRoot];
      const bad = flipped(all, which, bit);
      expect(
        verifyConsistency({
          ...input,
          firstRoot: bad[0]!,
          path: bad.slice(1, -1),
          secondRoot: bad[bad.length - 1]!,
        }),
      ).toBe(false);
    },
  );

  property.prop([fc.integer({ min: 1, max: 2 ** 40 }), fc.nat()])(
    'a proof reads at most two nodes per level, and appending reads only complete left siblings',
    (size, pick) => {
      const index = pick % size;
      const levels = Math.ceil(Math.log2(size)) + 1;
      expect(nodesFor(inclusionRanges(index, size)).length).toBeLessThanOrEqual(2 * levels);
      expect(nodesFor(consistencyRanges(1 + (pick % size), size)).length).toBeLessThanOrEqual(2 * levels);
      for (const s of appendSiblings(index)) expect((s.index + 1) * 2 ** s.level).toBeLessThanOrEqual(index);
    },
  );

  property.prop([fc.integer({ min: 1, max: 36 }), fc.nat({ max: 2 ** 12 })])(
    'a node sits in order between its two halves',
    (level, index) => {
      const at = inOrderPosition({ level, index });
      const half = 2 ** (level - 1);
      expect(inOrderPosition({ level: level - 1, index: 2 * index })).toBe(at - half);
      expect(inOrderPosition({ level: level - 1, index: 2 * index + 1 })).toBe(at + half);
    },
  );

  it('gives the nodes of a perfect tree of 2^k leaves the places 0 to 2^(k+1) - 2, each once', () => {
    const k = 10;
    const positions: number[] = [];
    for (let level = 0; level <= k; level++)
      for (let index = 0; index < 2 ** (k - level); index++) positions.push(inOrderPosition({ level, index }));
    expect(positions.sort((a, b) => a - b)).toEqual(Array.from({ length: 2 ** (k + 1) - 1 }, (_, i) => i));
  });
});
