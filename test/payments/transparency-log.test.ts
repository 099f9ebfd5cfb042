// The certificate transparency log kept in the ledger (issue 10 item 4), on SQLite and on PostgreSQL: each
// committed certificate is one leaf, its body byte for byte; heads and proofs computed from the stored
// subtree hashes agree with a tree rebuilt from the leaves, and verify; concurrent issuers on one PostgreSQL
// append without a gap or a fork.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_ROOT, leafHash, nodeKey, verifyConsistency, verifyInclusion } from '../../src/lib/merkle.ts';
import type { Ledger } from '../../src/payments/ledger.ts';
import { openPostgresStore } from '../../src/payments/postgres-store.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import { LogRequestError, TransparencyLog } from '../../src/service/transparency-log.ts';
import { buildJwks } from '../../src/signing/jwks.ts';
import { verifyTreeHead } from '../../src/signing/tree-head.ts';
import { fixedKey } from '../signing/fixtures.ts';
import { MemoryTree } from '../lib/memory-tree.ts';
import { commitOne, idOf, keySource, ledgerOver } from './log-fixtures.ts';
import { freshSchema, postgresReachable, type TestSchema } from './postgres.ts';

const key = await fixedKey();
const jwks = buildJwks(key.publicJwk, []);
const hex = (h: string) => Buffer.from(h, 'hex');

interface Backend {
  open(): Promise<LedgerStore>;
  cleanup(): Promise<void>;
}

function logContract(name: string, makeBackend: () => Promise<Backend>): void {
  describe(`transparency log: ${name}`, () => {
    let backend: Backend;
    let ledger: Ledger;
    let clock: number;
    let log: TransparencyLog;

    beforeEach(async () => {
      backend = await makeBackend();
      ledger = ledgerOver(await backend.open());
      clock = Date.parse('2026-11-23T12:00:00Z');
      log = new TransparencyLog(ledger.log, keySource(key), () => new Date(clock));
    });
    afterEach(async () => {
      await ledger.close();
      await backend.cleanup();
    });

    it('signs the empty log, then appends each certificate as the next leaf, its body byte for byte', async () => {
      const empty = await log.head();
      expect(empty).toMatchObject({ tree_size: 0, root_hash: EMPTY_ROOT.toString('hex') });
      expect(verifyTreeHead(empty, jwks)).toMatchObject({ ok: true, kid: key.kid });
      const tree = new MemoryTree();
      for (let i = 0; i < 13; i++) {
        const { id, body } = await commitOne(ledger, `cert-${i}`);
        expect(tree.append(Buffer.from(body, 'utf8'))).toBe(i);
        expect(await ledger.log.logIndex(id)).toBe(i);
      }
      expect(await ledger.log.logSize()).toBe(13);
      const head = await log.head();
      expect(head).toMatchObject({ tree_size: 13, root_hash: tree.root().toString('hex') });
      for (const size of [1, 2, 3, 7, 8, 12])
        expect((await log.head(size)).root_hash).toBe(tree.root(size).toString('hex'));
    });

    it('gives inclusion proofs against the current or an earlier head, and consistency proofs, that verify', async () => {
      const leaves: string[] = [];
      for (let i = 0; i < 11; i++) leaves.push((await commitOne(ledger, `cert-${i}`)).body);
      for (const [i, size] of [
        [0, undefined],
        [4, undefined],
        [10, undefined],
        [3, 4],
        [5, 9],
        [0, 1],
      ] as const) {
        const proof = (await log.inclusion(idOf(`cert-${i}`), size))!;
        expect(proof).toMatchObject({ certificate_id: idOf(`cert-${i}`), leaf_index: i, tree_size: size ?? 11 });
        expect(verifyTreeHead(proof.tree_head, jwks).ok).toBe(true);
        const input = {
          index: i,
          size: proof.tree_size,
          leafHash: leafHash(Buffer.from(leaves[i]!, 'utf8')),
          path: proof.inclusion_path.map(hex),
          root: hex(proof.tree_head.root_hash),
        };
        expect(verifyInclusion(input)).toBe(true);
      }
      for (const [from, to] of [
        [1, 11],
        [4, 8],
        [5, 11],
        [11, 11],
        [7, 10],
      ] as const) {
        const proof = await log.consistency(from, to);
        const [a, b] = [await log.head(from), await log.head(to)];
        const input = { first: from, second: to, path: proof.consistency_path.map(hex) };
        expect(verifyConsistency({ ...input, firstRoot: hex(a.root_hash), secondRoot: hex(b.root_hash) })).toBe(true);
      }
    });

    it('keeps the upper nodes it read: a later proof asks the store only for the lower ones, and verifies', async () => {
      const asked: string[] = [];
      const store = {
        ...ledger.log,
        logNodes: (ids: Parameters<typeof ledger.log.logNodes>[0]) => {
          asked.push(...ids.map(nodeKey));
          return ledger.log.logNodes(ids);
        },
      };
      const keeping = new TransparencyLog(store, keySource(key), () => new Date(clock), 2);
      const leaves: string[] = [];
      const proveAndVerify = async (i: number) => {
        const proof = (await keeping.inclusion(idOf(`cert-${i}`)))!;
        const root = hex(proof.tree_head.root_hash);
        const leaf = leafHash(Buffer.from(leaves[i]!, 'utf8'));
        const input = { index: i, size: proof.tree_size, leafHash: leaf, path: proof.inclusion_path.map(hex), root };
        expect(verifyInclusion(input)).toBe(true);
      };
      for (let i = 0; i < 16; i++) leaves.push((await commitOne(ledger, `cert-${i}`)).body);
      await proveAndVerify(1);
      expect(asked).toEqual(expect.arrayContaining(['2:1', '3:1']));
      asked.length = 0;
      await proveAndVerify(2);
      // Leaf 2's path: leaf 3 and leaves 0-1 from the store; leaves 4-7 (2:1) and 8-15 (3:1) kept from the first.
      expect(asked.sort()).toEqual(['0:3', '1:0']);
      // Grown past the tree they were read in, the kept nodes still serve, for they never change.
      for (let i = 16; i < 21; i++) leaves.push((await commitOne(ledger, `cert-${i}`)).body);
      asked.length = 0;
      await proveAndVerify(2);
      expect(asked).toContain('2:4');
      expect(asked).not.toContain('2:1');
      expect(asked).not.toContain('3:1');
    });

    it('signs a head once per size: later requests get the stored one, not a new timestamp', async () => {
      await commitOne(ledger, 'only');
      const first = await log.head();
      clock += 60_000;
      expect(await log.head()).toEqual(first);
      await commitOne(ledger, 'second');
      const second = await log.head();
      expect(second.tree_size).toBe(2);
      expect(second.timestamp).toBe('2026-11-23T12:01:00Z');
    });

    it('refuses sizes past the log and sizes out of order, and knows no unlogged certificate', async () => {
      await commitOne(ledger, 'a');
      await commitOne(ledger, 'b');
      await expect(log.head(3)).rejects.toThrow(LogRequestError);
      await expect(log.inclusion(idOf('b'), 1)).rejects.toThrow(/leaf 1: it was appended after the tree of size 1/);
      await expect(log.consistency(0, 2)).rejects.toThrow(LogRequestError);
      await expect(log.consistency(2, 1)).rejects.toThrow(LogRequestError);
      await expect(log.consistency(1, 3)).rejects.toThrow(/larger than the log/);
      expect(await log.inclusion(idOf('never'))).toBeNull();
    });

    it('appends nothing when the commit fails (the reservation was lost)', async () => {
      const { token } = (await ledger.issue({ source: 'test' }))[0]!;
      await expect(
        ledger.commit(token, 'not-a-reservation', { id: idOf('lost'), domain: 'lost.test', body: '{}' }),
      ).rejects.toThrow();
      expect(await ledger.log.logSize()).toBe(0);
      expect(await ledger.log.logIndex(idOf('lost'))).toBeNull();
    });
  });
}

logContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-log-'));
  return {
    open: async () => openSqliteStore(path.join(dir, 'ledger.sqlite')),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const pgUp = await postgresReachable();
if (!pgUp)
  console.log('PostgreSQL not reachable: skipped (the transparency log on PostgreSQL and its concurrent appenders)');

describe.skipIf(!pgUp)('PostgreSQL', () => {
  logContract('PostgreSQL', async () => {
    const schema = await freshSchema();
    return { open: () => openPostgresStore(schema.url), cleanup: () => schema.drop() };
  });

  describe('two issuers with their own connection pools, appending at the same time', () => {
    let schema: TestSchema;
    let ledgers: Ledger[];
    beforeEach(async () => {
      schema = await freshSchema();
      ledgers = [ledgerOver(await openPostgresStore(schema.url)), ledgerOver(await openPostgresStore(schema.url))];
    });
    afterEach(async () => {
      await Promise.all(ledgers.map((l) => l.close()));
      await schema.drop();
    });

    it('fill indices 0..n-1 with no gap and no repeat, and every head agrees on one root', async () => {
      const PER_ISSUER = 25;
      await Promise.all(
        ledgers.map((ledger, who) =>
          Promise.all(Array.from({ length: PER_ISSUER }, (_, i) => commitOne(ledger, `issuer-${who}-${i}`))),
        ),
      );
      const n = 2 * PER_ISSUER;
      const entries = await schema.query<{ leaf_index: string; body: string }>(
        `SELECT e.leaf_index, c.body FROM log_entries e JOIN certificates c ON c.id = e.certificate_id
         ORDER BY e.leaf_index`,
      );
      expect(entries.map((e) => Number(e.leaf_index))).toEqual(Array.from({ length: n }, (_, i) => i));
      // Exactly one stored hash per perfect subtree, floor(n / 2^level) at each level: 2n - popcount(n) in all.
      const [nodes] = await schema.query<{ count: string }>('SELECT count(*) FROM log_nodes');
      expect(Number(nodes!.count)).toBe(2 * n - n.toString(2).replaceAll('0', '').length);
      const tree = new MemoryTree();
      for (const e of entries) tree.append(Buffer.from(e.body, 'utf8'));
      const logs = ledgers.map((l) => new TransparencyLog(l.log, keySource(key)));
      const heads = await Promise.all(logs.map((l) => l.head()));
      expect(heads[0]).toEqual(heads[1]);
      expect(heads[0]).toMatchObject({ tree_size: n, root_hash: tree.root().toString('hex') });
    });
  });
});
