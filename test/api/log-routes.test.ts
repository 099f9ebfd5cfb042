// The transparency log's routes (issue 10 item 4): /log/sth, /log/proof/{id}, /log/consistency over a SQLite
// ledger, each answer in the shape its schema gives, and every bad input a 400 or 404 with the Error body.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationProblem } from '../../src/api/operations/api-schemas.ts';
import { createApp } from '../../src/api/http/app.ts';
import { logRoutes } from '../../src/api/rest/log-routes.ts';
import { createLogger } from '../../src/lib/log.ts';
import { leafHash, verifyConsistency, verifyInclusion } from '../../src/lib/merkle.ts';
import type { Ledger } from '../../src/payments/ledger.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import { TransparencyLog } from '../../src/service/transparency-log.ts';
import { buildJwks } from '../../src/signing/jwks.ts';
import { verifyTreeHead, type TreeHead } from '../../src/signing/tree-head.ts';
import { commitOne, idOf, keySource, ledgerOver } from '../payments/log-fixtures.ts';
import { fixedKey } from '../signing/fixtures.ts';

const BASE = 'https://dvs.example.net';
const key = await fixedKey();
const jwks = buildJwks(key.publicJwk, []);
const hex = (h: string) => Buffer.from(h, 'hex');

let dir: string;
let ledger: Ledger;
let server: http.Server;
let origin: string;
const bodies: string[] = [];

async function get(pathname: string): Promise<{ status: number; json: Record<string, unknown>; cache: string | null }> {
  const res = await fetch(origin + pathname);
  return {
    status: res.status,
    json: (await res.json()) as Record<string, unknown>,
    cache: res.headers.get('cache-control'),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-log-routes-'));
  ledger = ledgerOver(openSqliteStore(path.join(dir, 'ledger.sqlite')));
  for (let i = 0; i < 6; i++) bodies.push((await commitOne(ledger, `route-${i}`)).body);
  const app = createApp({
    baseUrl: BASE,
    trustProxy: null,
    log: createLogger({ logLevel: 'silent' }),
    routers: [logRoutes(new TransparencyLog(ledger.log, keySource(key)))],
  });
  const handle = app.callback();
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /log/sth', () => {
  it('answers the current signed head, not cached, and a head of a given size, cached', async () => {
    const now = await get('/log/sth');
    expect(now.status).toBe(200);
    expect(validationProblem('tree-head', now.json)).toBeNull();
    expect(now.json.tree_size).toBe(6);
    expect(now.cache).toBe('no-cache');
    expect(verifyTreeHead(now.json, jwks)).toMatchObject({ ok: true, kid: key.kid });
    const earlier = await get('/log/sth?tree_size=3');
    expect(earlier.json.tree_size).toBe(3);
    expect(earlier.cache).toContain('immutable');
  });
});

describe('GET /log/proof/{id}', () => {
  it("proves each certificate's leaf, its body byte for byte, against the current head or a given size", async () => {
    for (const [i, query] of [
      [0, ''],
      [5, ''],
      [2, '?tree_size=3'],
      [3, '?tree_size=6'],
    ] as const) {
      const res = await get(`/log/proof/${idOf(`route-${i}`)}${query}`);
      expect(res.status).toBe(200);
      expect(validationProblem('log-inclusion', res.json)).toBeNull();
      const head = res.json.tree_head as TreeHead;
      expect(verifyTreeHead(head, jwks).ok).toBe(true);
      const included = verifyInclusion({
        index: res.json.leaf_index as number,
        size: head.tree_size,
        leafHash: leafHash(Buffer.from(bodies[i]!, 'utf8')),
        path: (res.json.inclusion_path as string[]).map(hex),
        root: hex(head.root_hash),
      });
      expect(included).toBe(true);
    }
  });

  it('answers 404 for a certificate not in the log and 400 for a size it cannot be proved in', async () => {
    const unknown = await get(`/log/proof/${idOf('nope')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({
      error: expect.stringContaining('transparency log') as unknown,
      docs: `${BASE}/docs/api#transparency-log`,
    });
    expect((await get('/log/proof/%3Cscript%3E')).status).toBe(404);
    const early = await get(`/log/proof/${idOf('route-4')}?tree_size=2`);
    expect(early.status).toBe(400);
    expect(early.json.error).toMatch(/appended after the tree of size 2/);
    for (const bad of ['7', '-1', '1e3', '01', 'abc', '99999999999999999'])
      expect((await get(`/log/proof/${idOf('route-0')}?tree_size=${bad}`)).status).toBe(400);
  });
});

describe('GET /log/consistency', () => {
  it('proves that each size extends an earlier one', async () => {
    const heads = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (n) => (await get(`/log/sth?tree_size=${n}`)).json as unknown as TreeHead),
    );
    for (const [from, to] of [
      [1, 6],
      [3, 5],
      [4, 6],
      [6, 6],
    ] as const) {
      const res = await get(`/log/consistency?from=${from}&to=${to}`);
      expect(res.status).toBe(200);
      expect(validationProblem('log-consistency', res.json)).toBeNull();
      const ok = verifyConsistency({
        first: from,
        second: to,
        path: (res.json.consistency_path as string[]).map(hex),
        firstRoot: hex(heads[from - 1]!.root_hash),
        secondRoot: hex(heads[to - 1]!.root_hash),
      });
      expect(ok).toBe(true);
    }
  });

  it('answers 400 with the Error body for missing, malformed, out-of-order or too large sizes', async () => {
    for (const query of [
      '',
      '?from=1',
      '?to=3',
      '?from=0&to=3',
      '?from=4&to=2',
      '?from=1&to=7',
      '?from=x&to=2',
      '?from=1&from=2&to=3',
    ]) {
      const res = await get(`/log/consistency${query}`);
      expect(res.status, query).toBe(400);
      expect(validationProblem('error', res.json), query).toBeNull();
    }
  });

  it('says a well-formed size beyond any tree is too large, not malformed', async () => {
    for (const path of [`/log/sth?tree_size=${'9'.repeat(30)}`, `/log/consistency?from=1&to=${'1'.repeat(17)}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.json.error, path).toMatch(/is too large: no tree size exceeds 9007199254740991/);
      expect(res.json.error, path).not.toMatch(/must be one non-negative integer/);
    }
  });
});
