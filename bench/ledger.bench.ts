// Issue 38: the ledger filled through its own write path, one transaction per certificate as a Full Validation
// commits it (token issued, reserved, committed with its log append), on the embedded SQLite and on PostgreSQL.
// Per window of certificates: appends per second, the CPU per append of the bench process and of the database
// server's backends that serve it (PostgreSQL; SQLite runs in the bench process), the machine's load average,
// inclusion and consistency proof and tree head latency (median, p99), database size per certificate and the
// process's RSS. The CPU per append is what tells whether a write costs more in a bigger ledger when the machine
// is not idle, which moves the appends per second. It is split into user and system time, with the machine's free
// memory beside it: on a virtual machine whose host backs guest memory only when first touched (and takes freed
// pages back), page cache that grows onto fresh memory costs several times the system time of page cache that
// reuses pages, so a ledger's files growing into free memory slow its writes until memory is full, whatever the
// ledger's size (docs/operations.md, "Write cost at a million certificates").
//
// Each certificate is a real one in size and shape: the golden good.test report certified and signed once,
// its id changed per certificate (so every leaf differs), with the golden observations and report gzipped as
// its evidence and report (what a Full Validation stores). The clock moves 8.64 s per certificate (10,000
// domains re-validated daily) and expired evidence is pruned every ten simulated minutes, as the service's
// pruning does, so the database holds what it would after that much monitoring. A lifetime shorter than the
// default 90 days makes evidence expire within a shorter run: at 200,000 certificates (20 simulated days),
// `--lifetime-days 10` prunes the second half's worth.
//
// `npm run bench -- ledger [--count 1000000] [--every 100000] [--backend sqlite|postgres|both] [--lifetime-days 90]`
// PostgreSQL: DVS_BENCH_POSTGRES_URL (default the test server), in a schema of its own, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { canonicalBytes } from '../src/lib/canonical-json.ts';
import { Ledger } from '../src/payments/ledger.ts';
import { ledgerPruner } from '../src/payments/ledger-retention.ts';
import { openPostgresStore } from '../src/payments/postgres-store.ts';
import { openSqliteStore } from '../src/payments/sqlite-store.ts';
import type { LedgerStore } from '../src/payments/store.ts';
import { TransparencyLog } from '../src/service/transparency-log.ts';
import { certificateText, issueCertificate, type CertifiableReport } from '../src/signing/certificate.ts';
import { keyFromSeed, SIGNING_KID, type SigningKey } from '../src/signing/keys.ts';
import { median } from './median.ts';
import { processUsage } from './world-process.ts';

interface Options {
  count: number;
  every: number;
  backends: ('sqlite' | 'postgres')[];
  lifetimeMs: number;
}

function options(args: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return undefined;
    return args[i]!.includes('=') ? args[i]!.slice(args[i]!.indexOf('=') + 1) : args[i + 1];
  };
  const count = Number(value('count') ?? 1_000_000);
  const every = Number(value('every') ?? Math.min(100_000, count));
  const backend = value('backend') ?? 'both';
  const lifetimeDays = Number(value('lifetime-days') ?? 90);
  if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive whole number');
  if (!(lifetimeDays > 0)) throw new Error('--lifetime-days must be a positive number');
  if (!Number.isInteger(every) || every < 1) throw new Error('--every must be a positive whole number');
  if (!['sqlite', 'postgres', 'both'].includes(backend)) throw new Error('--backend is sqlite, postgres or both');
  return {
    count,
    every,
    backends: backend === 'both' ? ['sqlite', 'postgres'] : [backend as 'sqlite' | 'postgres'],
    lifetimeMs: lifetimeDays * 86_400_000,
  };
}

const SECONDS_PER_CERTIFICATE = 86_400 / 10_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 500;
const START = Date.parse('2027-01-01T00:00:00Z');

/** What every certificate is made of: a real signed body (its id swapped per certificate), evidence, report. */
interface Template {
  body: string;
  id: string;
  evidence: Buffer;
  report: Buffer;
}

async function template(key: SigningKey): Promise<Template> {
  const golden = path.join(import.meta.dirname, '../test/golden');
  const report = JSON.parse(readFileSync(path.join(golden, 'good.test.report.json'), 'utf8')) as CertifiableReport;
  const observations = JSON.parse(readFileSync(path.join(golden, 'good.test.observations.json'), 'utf8')) as unknown;
  const certificate = issueCertificate({ report, issuer: { baseUrl: 'https://dvs.example' }, key });
  return {
    body: certificateText(certificate),
    id: certificate.payload.id,
    evidence: gzipSync(canonicalBytes(observations)),
    report: gzipSync(canonicalBytes(report)),
  };
}

/** The n-th certificate's id: the service's shape (dvc_ and 32 hex digits), the same length as the template's. */
const idOf = (n: number): string => `dvc_${n.toString(16).padStart(32, '0')}`;

interface Backend {
  name: string;
  store: LedgerStore;
  /** The server settings its figures depend on, printed with them; null in-process. */
  settings: string | null;
  /** Bytes the database takes on disk now. */
  size(): Promise<number>;
  /** CPU the database server's own processes have spent for this bench so far, or null when it runs in-process. */
  serverCpuMs(): Promise<number | null>;
  close(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-ledger-bench-'));
  const file = path.join(dir, 'ledger.sqlite');
  const store = openSqliteStore(file);
  return {
    name: 'SQLite (embedded default)',
    store,
    settings: null,
    async size() {
      // The files as they stand (the ledger, its tree and its evidence files), each with its WAL (at most a few
      // MB between checkpoints). A checkpoint from a connection of the bench's own would drop the store's page
      // caches, the tree's included (SQLite's rule in WAL mode), and the next window's proofs would measure that.
      let bytes = 0;
      for (const f of readdirSync(dir)) if (!f.endsWith('-shm')) bytes += statSync(path.join(dir, f)).size;
      return bytes;
    },
    serverCpuMs: async () => null,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBackend(): Promise<Backend | null> {
  const server = process.env.DVS_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const schema = `dvs_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(server);
  url.searchParams.set('options', `-c search_path=${schema} -c application_name=${schema}`);
  const store = await openPostgresStore(url.toString());
  // An index-only read skips the table only on pages autovacuum has marked all-visible (migration 015): with it
  // off, as on some CI servers, every proof's node lookup also reads the table's page.
  const setting = async (name: string) =>
    (await admin.query<{ value: string }>('SELECT current_setting($1) AS value', [name])).rows[0]!.value;
  const settings = `shared_buffers ${await setting('shared_buffers')}, autovacuum ${await setting('autovacuum')}`;
  /** The backends serving the store's pool, which outlive the window; CPU of ones that ended is not counted. */
  const backends = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [schema])).rows;
  return {
    name: 'PostgreSQL',
    store,
    settings,
    async size() {
      const { rows } = await admin.query<{ bytes: string }>(
        `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number(rows[0]!.bytes);
    },
    async serverCpuMs() {
      let ms = 0;
      for (const { pid } of await backends()) ms += processUsage(pid).cpuMs;
      return ms;
    },
    async close() {
      await store.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const p99 = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

/** Time spent pruning, and per certificate whose evidence went. */
const prunedText = (spentMs: number, certificates: number): string =>
  `${(spentMs / 1000).toFixed(1)} s, ${certificates.toLocaleString('en')} certificates` +
  (certificates > 0 ? ` (${((1000 * spentMs) / certificates).toFixed(0)} us each)` : '');

/** Median and p99 of `n` timed calls, in milliseconds. */
async function latency(n: number, call: (i: number) => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  return `${ms(median(times))} / ${ms(p99(times))}`;
}

/** One window of appends, checkpoint to checkpoint: wall time, the bench's CPU and the database server's. */
async function windowMeter(backend: Backend) {
  let start = performance.now();
  let cpu = process.cpuUsage();
  let server = await backend.serverCpuMs();
  let from = 0;
  return {
    /** The window up to `size`, read before the checkpoint's own queries. */
    async end(size: number) {
      const used = process.cpuUsage(cpu);
      const serverNow = await backend.serverCpuMs();
      return {
        appended: size - from,
        seconds: (performance.now() - start) / 1000,
        benchUserMs: used.user / 1000,
        benchSystemMs: used.system / 1000,
        serverMs: serverNow === null || server === null ? null : serverNow - server,
      };
    },
    /** Starts the next window, after the checkpoint's queries. */
    async restart(size: number) {
      start = performance.now();
      cpu = process.cpuUsage();
      server = await backend.serverCpuMs();
      from = size;
    },
  };
}

async function fill(backend: Backend, opts: Options, tpl: Template, key: SigningKey): Promise<void> {
  let clock = START;
  const ledger = new Ledger(backend.store, {
    mode: 'test',
    tokenTtlSeconds: 90 * 86_400,
    reservationLeaseSeconds: 900,
    now: () => clock,
  });
  const log = new TransparencyLog(ledger.log, { current: async () => key }, () => new Date(clock));
  // The service's own pruning, drained each time as its timer or job does (src/payments/ledger-retention.ts).
  const pruner = ledgerPruner(ledger, { batch: PRUNE_BATCH, reportRetentionSeconds: null });
  const random = (below: number) => Math.floor(Math.random() * below);

  console.log(`\n### ${backend.name}: ${opts.count.toLocaleString('en')} certificates\n`);
  if (backend.settings) console.log(`Server: ${backend.settings}.\n`);
  console.log(
    '| certificates | appends/s over the window | load average | free memory of the machine | bench CPU per append (user + system) | database server CPU per append | inclusion proof median / p99 | consistency proof median / p99 | new tree head median / p99 | database per certificate | RSS | expired evidence pruned in the window |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');

  const checkpoints = new Set<number>();
  for (let n = opts.every; n <= opts.count; n += opts.every) checkpoints.add(n);
  checkpoints.add(opts.count);
  if (opts.count >= 10_000) checkpoints.add(10_000);
  const rates: number[] = [];
  let lastPrune = clock;
  const pruned = { ms: 0, certificates: 0 };
  const prunedBefore = { ...pruned };
  const meter = await windowMeter(backend);

  for (let n = 0; n < opts.count; n++) {
    const { token } = (await ledger.issue({ source: 'bench' }))[0]!;
    const domain = `f${n % 10_000}.fleet.test`;
    const held = await ledger.reserve(token, domain);
    if (held.kind !== 'reserved') throw new Error(`token not reserved: ${held.kind}`);
    const id = idOf(n);
    await ledger.commit(token, held.reservationId, {
      id,
      domain,
      body: tpl.body.replace(tpl.id, id),
      expiresAt: clock + opts.lifetimeMs,
      evidence: tpl.evidence,
      report: tpl.report,
    });
    clock += SECONDS_PER_CERTIFICATE * 1000;
    if (clock - lastPrune >= PRUNE_EVERY_MS) {
      const t0 = performance.now();
      pruned.certificates += (await pruner.runOnce()).evidence;
      pruned.ms += performance.now() - t0;
      lastPrune = clock;
    }

    const size = n + 1;
    if (!checkpoints.has(size)) continue;
    const { appended, seconds, benchUserMs, benchSystemMs, serverMs } = await meter.end(size);
    const serverPerAppend = serverMs === null ? 'in-process' : `${(serverMs / appended).toFixed(2)} ms`;
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const freeKib = Number(/^MemFree:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1]);
    const perAppend = (x: number) => (x / appended).toFixed(2);
    if (size !== 10_000 || opts.every === 10_000) rates.push(appended / seconds);
    const inclusion = await latency(200, () => log.inclusion(idOf(random(size)), size));
    const consistency = await latency(200, () => {
      const to = 1 + random(size);
      return log.consistency(1 + random(to), to);
    });
    const heads = await latency(100, () => log.head(1 + random(size)));
    const bytes = await backend.size();
    console.log(
      `| ${size.toLocaleString('en')} | ${(appended / seconds).toFixed(0)} | ${load} | ${(freeKib / 2 ** 20).toFixed(1)} GiB | ${perAppend(benchUserMs + benchSystemMs)} ms (${perAppend(benchUserMs)} + ${perAppend(benchSystemMs)}) | ${serverPerAppend} | ${inclusion} ms | ${consistency} ms | ${heads} ms | ${(bytes / size / 1024).toFixed(1)} KiB | ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB | ${prunedText(pruned.ms - prunedBefore.ms, pruned.certificates - prunedBefore.certificates)} |`,
    );
    Object.assign(prunedBefore, pruned);
    await meter.restart(size);
  }
  if (rates.length >= 2)
    console.log(
      `\nThe last window's rate is ${((100 * rates.at(-1)!) / rates[0]!).toFixed(0)} % of the first's (goal >= 80 %).`,
    );
  console.log(
    `Expired evidence pruned every ten simulated minutes: ${prunedText(pruned.ms, pruned.certificates)} in all. Simulated time: ${((clock - START) / 86_400_000).toFixed(0)} days.`,
  );
}

export default async function bench(args: readonly string[] = []): Promise<void> {
  const opts = options(args);
  const key = await keyFromSeed(SIGNING_KID, new Uint8Array(randomBytes(32)), '2027-01-01T00:00:00Z');
  const tpl = await template(key);
  console.log(
    `Each certificate: body ${(Buffer.byteLength(tpl.body) / 1024).toFixed(1)} KiB, evidence ${(tpl.evidence.length / 1024).toFixed(1)} KiB (gzip), report ${(tpl.report.length / 1024).toFixed(1)} KiB (gzip). Latencies: 200 inclusion and consistency proofs of random leaves and sizes, 100 tree heads of random sizes, each the first of its size (root, signature, stored).`,
  );
  for (const name of opts.backends) {
    const backend = name === 'sqlite' ? await sqliteBackend() : await postgresBackend();
    if (!backend) {
      console.log('\n(PostgreSQL not reachable: set DVS_BENCH_POSTGRES_URL; skipped)');
      continue;
    }
    try {
      await fill(backend, opts, tpl, key);
    } finally {
      await backend.close();
    }
  }
}
