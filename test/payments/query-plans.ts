// Query plans of what a write path really runs (issue 38). The statements are captured from the driver while
// the path runs (better-sqlite3's prepared statements, pg's client queries), so a statement added to a path is
// checked without being listed anywhere; each is then explained with the values it ran with, over a database
// filled and analysed so the planner chooses as it would in production.
//
// To cover another table or path (batches, monitors): run its operations inside `captureSqlite` /
// `capturePostgres`, and add its table to the list given to `sqliteFullScans` / `postgresFullScans`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgresStore } from '../../src/payments/postgres-store.ts';
import { treeFileOf } from '../../src/payments/sqlite-log.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import { freshSchema } from './postgres.ts';

export interface Captured {
  sql: string;
  params: unknown[];
  /** SQLite: the file of the connection it ran on (the ledger's, or one of its evidence files). */
  file?: string;
}

/** The statements worth explaining: data statements, not BEGIN, COMMIT or SAVEPOINT. */
const EXPLAINABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

function distinct(captured: Captured[]): Captured[] {
  const seen = new Map<string, Captured>();
  for (const c of captured) if (EXPLAINABLE.test(c.sql) && !seen.has(c.sql)) seen.set(c.sql, c);
  return [...seen.values()];
}

type StatementMethod = 'run' | 'get' | 'all' | 'iterate';

/** Runs `work`, recording every statement it executes through better-sqlite3 (prepared before or during it). */
export async function captureSqlite(work: () => Promise<void>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const methods: StatementMethod[] = ['run', 'get', 'all', 'iterate'];
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    StatementMethod,
    (this: Database.Statement, ...params: unknown[]) => unknown
  >;
  probe.close();
  const originals = methods.map((m) => proto[m]);
  methods.forEach((m, i) => {
    const original = originals[i]!;
    proto[m] = function (this: Database.Statement, ...params: unknown[]) {
      captured.push({ sql: this.source, params, file: this.database.name });
      return original.apply(this, params);
    };
  });
  try {
    await work();
  } finally {
    methods.forEach((m, i) => (proto[m] = originals[i]!));
  }
  return distinct(captured);
}

/** Runs `work`, recording every query pg's clients send meanwhile (pooled ones included). */
export async function capturePostgres(work: () => Promise<void>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ sql: first, params: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first)
      captured.push({ sql: String(first.text), params: (first as { values?: unknown[] }).values ?? [] });
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return distinct(captured);
}

export interface FullScan {
  sql: string;
  plan: string;
}

const compact = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/**
 * The statements whose SQLite plan reads a whole table among `tables`: `SCAN t`, with or without an index
 * (a full index walk still grows with the table). `SEARCH t` is a lookup or a bounded range.
 */
export function sqliteFullScans(db: Database.Database, statements: Captured[], tables: readonly string[]): FullScan[] {
  const scan = new RegExp(`^SCAN (?:${tables.join('|')})\\b`);
  const found: FullScan[] = [];
  for (const s of statements) {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[];
    if (rows.some((r) => scan.test(r.detail)))
      found.push({ sql: compact(s.sql), plan: rows.map((r) => r.detail).join(' | ') });
  }
  return found;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

async function postgresPlan(client: Pick<pg.Client, 'query'>, s: Captured): Promise<PlanNode> {
  const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `EXPLAIN (FORMAT JSON) ${s.sql}`,
    s.params,
  );
  return rows[0]!['QUERY PLAN'][0]!.Plan;
}

/** Every node of a plan, top down, with whether a Limit stands above it. */
function* planNodes(node: PlanNode, limited = false): Generator<{ node: PlanNode; limited: boolean }> {
  yield { node, limited };
  for (const child of node.Plans ?? []) yield* planNodes(child, limited || node['Node Type'] === 'Limit');
}

/** How each statement's PostgreSQL plan reads each of `tables` it reads: `table: node type`, one per read. */
export async function postgresTableReads(
  client: Pick<pg.Client, 'query'>,
  statements: Captured[],
  tables: readonly string[],
): Promise<string[]> {
  const reads: string[] = [];
  for (const s of statements)
    for (const { node } of planNodes(await postgresPlan(client, s))) {
      const table = node['Relation Name'];
      if (table && tables.includes(table)) reads.push(`${table}: ${node['Node Type']}`);
    }
  return reads;
}

/**
 * The statements whose PostgreSQL plan reads a whole table among `tables`: a Seq Scan, or an index walked
 * without a condition and without a Limit above it.
 */
export async function postgresFullScans(
  client: Pick<pg.Client, 'query'>,
  statements: Captured[],
  tables: readonly string[],
): Promise<FullScan[]> {
  const found: FullScan[] = [];
  for (const s of statements) {
    const lines: string[] = [];
    let full = false;
    for (const { node, limited } of planNodes(await postgresPlan(client, s))) {
      const table = node['Relation Name'];
      lines.push(
        `${node['Node Type']}${table ? ` on ${table}` : ''}${node['Index Cond'] ? ` (${node['Index Cond']})` : ''}`,
      );
      if (table && tables.includes(table)) {
        if (node['Node Type'] === 'Seq Scan') full = true;
        if (/Index/.test(node['Node Type']) && !node['Index Cond'] && !limited) full = true;
      }
    }
    if (full) found.push({ sql: compact(s.sql), plan: lines.join(' | ') });
  }
  return found;
}

/** A SQLite ledger in a folder of its own, with a second connection (the tree file attached) to fill and explain it. */
export interface SeededSqlite {
  store: LedgerStore;
  /** The ledger file. */
  file: string;
  db: Database.Database;
  close(): Promise<void>;
}

/** Opens a ledger (its migrations run), then runs `seed`'s statements (split on ";") with the named `params`. */
export function seededSqliteLedger(prefix: string, seed: string, params: Record<string, unknown>): SeededSqlite {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'ledger.sqlite');
  const store = openSqliteStore(file);
  const db = new Database(file);
  // The log's nodes are in the tree file beside the ledger, as the store attaches it.
  db.prepare('ATTACH DATABASE ? AS tree').run(treeFileOf(file));
  for (const statement of seed.split(';').filter((s) => s.trim())) db.prepare(statement).run(params);
  return {
    store,
    file,
    db,
    async close() {
      db.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PostgreSQL ledger in a fresh schema, with a client of its own to fill and explain it. */
export interface SeededPostgres {
  store: LedgerStore;
  client: pg.Client;
  close(): Promise<void>;
}

/** Opens a ledger in a fresh schema (its migrations run), then lets `seed` fill it through the client. */
export async function seededPostgresLedger(seed: (client: pg.Client) => Promise<unknown>): Promise<SeededPostgres> {
  const schema = await freshSchema();
  const store = await openPostgresStore(schema.url);
  const client = new pg.Client({ connectionString: schema.url });
  await client.connect();
  const close = async () => {
    await client.end();
    await store.close();
    await schema.drop();
  };
  try {
    await seed(client);
  } catch (err) {
    await close();
    throw err;
  }
  return { store, client, close };
}
