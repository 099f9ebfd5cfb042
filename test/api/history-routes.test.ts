// GET /api/domains/{domain}/history over a SQLite ledger holding a year of daily validations of one domain:
// newest first, paged by cursor without gaps or repeats, each entry with its certificate's status and the
// rules that changed since the run before, in the shape its schema gives; bad input is a 400.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/api/http/app.ts';
import { validationProblem } from '../../src/api/operations/api-schemas.ts';
import { domainOf } from '../../src/api/operations/scan-operations.ts';
import { historyRoutes } from '../../src/api/rest/history-routes.ts';
import { createLogger } from '../../src/lib/log.ts';
import { Ledger } from '../../src/payments/ledger.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import { DomainHistory, type HistoryPage } from '../../src/service/domain-history.ts';
import { idOf } from '../payments/log-fixtures.ts';
import { expectEvery } from '../helpers/every.ts';

const DAY = 86_400_000;
const START = Date.parse('2025-12-01T06:00:00Z');
const RUNS = 365;
const DOMAIN = 'daily.test';
/** Run i's outcome for the HSTS rule: it fails on days 100 to 109, so runs 100 and 110 change it. */
const hstsOutcome = (i: number) => (i >= 100 && i < 110 ? 'fail' : 'pass');

let dir: string;
let ledger: Ledger;
let clock = START;
let server: http.Server;
let origin: string;

function payload(i: number, id: string) {
  const at = new Date(START + i * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const failing = hstsOutcome(i) === 'fail';
  return {
    id,
    domain: DOMAIN,
    verdict: failing ? 'NOT_CONFORMANT' : 'CERTIFIED',
    score: failing ? 91 : 100,
    ruleset: { version: '1.0.0', digest: 'd' },
    observed_at: at,
    issued_at: at,
    expires_at: new Date(START + i * DAY + 90 * DAY).toISOString(),
    results: [
      { id: 'dns.resolves', version: 1, level: 'required', outcome: 'pass' },
      failing
        ? { id: 'headers.hsts.present', version: 1, level: 'required', outcome: 'fail', observed: { count: 0 } }
        : { id: 'headers.hsts.present', version: 1, level: 'required', outcome: 'pass' },
    ],
  };
}

async function get(pathname: string) {
  const res = await fetch(origin + pathname);
  return { status: res.status, json: (await res.json()) as HistoryPage & { error?: string }, res };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-history-'));
  ledger = new Ledger(openSqliteStore(path.join(dir, 'ledger.sqlite')), {
    mode: 'test',
    tokenTtlSeconds: 3 * 365 * 86_400,
    reservationLeaseSeconds: 60,
    now: () => clock,
  });
  for (let i = 0; i < RUNS; i++) {
    clock = START + i * DAY;
    const { token } = (await ledger.issue({ source: 'test' }))[0]!;
    const r = await ledger.reserve(token, DOMAIN);
    if (r.kind !== 'reserved') throw new Error(r.kind);
    const id = idOf(`daily-${i}`);
    const body = JSON.stringify({ payload: payload(i, id), jws: 'sig' });
    await ledger.commit(token, r.reservationId, { id, domain: DOMAIN, body, expiresAt: clock + 90 * DAY });
  }
  await ledger.revoke(idOf('daily-364'), 'regression', clock);
  const app = createApp({
    baseUrl: 'https://dvs.example.net',
    trustProxy: null,
    log: createLogger({ logLevel: 'silent' }),
    routers: [historyRoutes(new DomainHistory(ledger, () => clock), (d) => domainOf(d, ['test']))],
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

it('pages through every validation newest first, without gaps or repeats, each page in its schema', async () => {
  const seen: string[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const { status, json, res } = await get(
      `/api/domains/${DOMAIN}/history?limit=100${next ? `&before=${encodeURIComponent(next)}` : ''}`,
    );
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(validationProblem('domain-history', json)).toBeNull();
    seen.push(...json.entries.map((e) => e.certificate_id));
    next = json.next;
    pages++;
  } while (next);
  expect(pages).toBe(4);
  expect(seen).toEqual(Array.from({ length: RUNS }, (_, i) => idOf(`daily-${RUNS - 1 - i}`)));
});

it('gives each entry its verdict, score, ruleset, status and the rules changed since the run before', async () => {
  const { json } = await get(`/api/domains/${DOMAIN}/history?limit=3`);
  expect(json.entries.map((e) => e.status.status)).toEqual(['revoked', 'valid', 'superseded']);
  expect(json.entries[1]!.status).toMatchObject({ status: 'valid' });
  expect(json.entries[2]!.status).toMatchObject({ superseded_by: idOf('daily-363') });
  const all = await get(`/api/domains/${DOMAIN}/history?limit=100&before=${encodeURIComponent(json.next!)}`);
  expectEvery(all.json.entries, (e) => e.changes?.length === 0, 'no rule changed');
  // Days 110 down to 100: the HSTS rule passed again on day 110 and had failed on day 100.
  const cursor = (i: number) => encodeURIComponent(`${START + i * DAY}.${idOf(`daily-${i}`)}`);
  const days = (await get(`/api/domains/${DOMAIN}/history?limit=11&before=${cursor(111)}`)).json.entries;
  const run100 = days[10]!;
  expect(run100).toMatchObject({ verdict: 'NOT_CONFORMANT', score: 91, ruleset_version: '1.0.0' });
  expect(run100.changes).toEqual([
    {
      id: 'headers.hsts.present',
      level: 'required',
      before: { outcome: 'pass' },
      after: { outcome: 'fail', observed: { count: 0 } },
    },
  ]);
  expect(days[0]!.changes!.map((c) => [c.before.outcome, c.after.outcome])).toEqual([['fail', 'pass']]);
  expect(days.slice(1, 10).map((e) => e.changes)).toEqual(Array(9).fill([]));
  const first = await get(`/api/domains/${DOMAIN}/history?limit=1&before=${cursor(1)}`);
  expect(first.json.entries.map((e) => [e.certificate_id, e.changes])).toEqual([[idOf('daily-0'), null]]);
  expect(first.json.next).toBeNull();
});

it('answers an empty history for a domain never validated, and 400 for bad input', async () => {
  expect((await get('/api/domains/never.test/history')).json).toEqual({
    domain: 'never.test',
    entries: [],
    next: null,
  });
  for (const bad of ['limit=0', 'limit=101', 'limit=ten', 'before=yesterday', 'before=1.dvc_x']) {
    const { status, json } = await get(`/api/domains/${DOMAIN}/history?${bad}`);
    expect(status, bad).toBe(400);
    expect(json.error).toBeTruthy();
  }
  expect((await get('/api/domains/127.0.0.1/history')).status).toBe(400);
});
