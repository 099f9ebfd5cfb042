// Issue 32 section 6: bulk validation as a platform runs it. Two `dvs serve` instances share one PostgreSQL (the
// ledger and the job queue) and one Redis; the fixture internet runs in its own process with a fleet of domains
// at a 50 ms round trip. One batch of 10,000 Quick Scan domains, then one of 1,000 Full Validation items, each
// submitted to one instance and worked by both; per batch: wall time, domains per minute, CPU per domain (the
// instances', the world's, PostgreSQL's), the queue's own CPU per job (the instances' CPU per batch item less
// the CPU of the same scan asked alone), peak RSS per instance, /healthz latency and an interactive Quick
// Scan's latency against its idle figure, and the throughput against the CPU bound of the machine's cores; and,
// where pg_stat_statements is installed, PostgreSQL's busiest statements per item and the job engine's own.
//
// `npm run bench -- fleet [--domains 10000] [--full 1000] [--rtt 50]`
// PostgreSQL: DVS_BENCH_POSTGRES_URL (default the test server), in a schema of its own, dropped afterwards.
// Redis: DVS_BENCH_REDIS_URL (default database 11 of the local server), emptied first: the cache must be cold.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Agent, request } from 'undici';
import { engineSchemaFor } from '../src/batches/queue-database.ts';
import { localCertificateFile } from '../src/server/localhost-certificate.ts';
import { percentile } from './load.ts';
import { median } from './median.ts';
import { processUsage, startWorldProcess, stopChild } from './world-process.ts';

const ROOT = path.join(import.meta.dirname, '..');
const DVS = path.join(ROOT, 'bin', 'dvs.js');
const CORES = os.availableParallelism();
/** Fresh fleet domains kept out of the batches, for the interactive scans asked beside them. */
const SPARE = 1000;
const IDLE_QUICK = 20;
const IDLE_FULL = 5;

interface Options {
  domains: number;
  full: number;
  rtt: number;
}

function options(args: readonly string[]): Options {
  const value = (name: string, fallback: number) => {
    const at = args.indexOf(`--${name}`);
    const n = at >= 0 ? Number(args[at + 1]) : fallback;
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  return { domains: value('domains', 10_000), full: value('full', 1_000), rtt: value('rtt', 50) };
}

interface Instance {
  name: string;
  url: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

async function startInstance(name: string, env: Record<string, string>, dataDir: string): Promise<Instance> {
  const log = createWriteStream(path.join(dataDir, 'serve.log'));
  const child = spawn(process.execPath, [DVS, 'serve'], {
    env: { ...process.env, ...env, DVS_DATA_DIR: dataDir, DVS_PORT: '0', DVS_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(log);
  // A bench that dies leaves no service behind.
  process.once('exit', () => child.kill());
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Domain Validation Service on (\S+)/.exec(seen);
      if (match) resolve(match[1]!.replace('127.0.0.1', 'localhost'));
    });
    child.once('exit', (code) =>
      reject(new Error(`dvs serve (${name}) exited with ${code}; see ${dataDir}/serve.log`)),
    );
  });
  return { name, url, pid: child.pid!, dataDir, stop: () => stopChild(child) };
}

/** A `dvs` command's standard output (the account's key, minted tokens). */
function dvs(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [DVS, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`dvs ${args[0]} exited with ${code}`)))),
  );
}

/**
 * CPU milliseconds the PostgreSQL server has used (it is shared: other work counts too): every live server
 * process's, plus what the postmaster's ended children used (backends that closed between two readings).
 */
function postgresCpuMs(): number {
  const server = new Map<number, ReturnType<typeof processUsage>>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres')
        server.set(Number(pid), processUsage(Number(pid)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  let total = 0;
  for (const usage of server.values()) total += usage.cpuMs + (server.has(usage.ppid) ? 0 : usage.endedChildrenCpuMs);
  return total;
}

interface Client {
  call(
    instance: Instance,
    method: string,
    pathname: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; json: unknown; ms: number }>;
  close(): Promise<void>;
}

function client(ca: string): Client {
  const agent = new Agent({ connect: { ca }, connections: 64 });
  return {
    async call(instance, method, pathname, body, key) {
      const started = performance.now();
      const res = await request(instance.url + pathname, {
        method: method as 'GET',
        dispatcher: agent,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      const ms = performance.now() - started;
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        // NDJSON and errors without a body stay text.
      }
      return { status: res.statusCode, json, ms };
    },
    close: () => agent.close(),
  };
}

const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

interface Phase {
  label: string;
  items: number;
  wallS: number;
  instancesCpuMs: number;
  worldCpuMs: number;
  postgresCpuMs: number;
  aloneCpuMs: number;
  peaks: number[];
  healthz: number[];
  interactive: number[];
  interactiveIdle: number;
  results: number;
  verdicts: Record<string, number>;
  /** The machine's one-minute load average when the batch was submitted and when it ended. */
  load: [string, string];
  /** PostgreSQL's busiest statements over the batch (pg_stat_statements), or null without the extension. */
  statements: Statement[] | null;
  /** The statements of this run's job engine (pg-boss names its schema in each): fetches, inserts, completions. */
  engine: Statement[] | null;
}

interface Statement {
  text: string;
  calls: number;
  ms: number;
}

/** The statements PostgreSQL ran between two readings, the busiest first (a shared server: others' show too). */
function busiest(before: Map<string, Statement>, after: Map<string, Statement>): Statement[] {
  return [...after]
    .map(([id, s]) => ({
      text: s.text,
      calls: s.calls - (before.get(id)?.calls ?? 0),
      ms: s.ms - (before.get(id)?.ms ?? 0),
    }))
    .filter((s) => s.calls > 0)
    .sort((x, y) => y.ms - x.ms);
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;

function report(p: Phase): void {
  const perItem = p.instancesCpuMs / p.items;
  const rate = (p.items / p.wallS) * 60;
  const bound = (CORES * 60_000) / p.aloneCpuMs;
  const healthz = [...p.healthz].sort((a, b) => a - b);
  console.log(`\n### ${p.label}\n`);
  console.log('| figure | value | goal |\n|---|---|---|');
  console.log(
    `| items | ${p.items.toLocaleString('en')} (results: ${p.results.toLocaleString('en')}; ${Object.entries(p.verdicts)
      .map(([v, n]) => `${v} ${n}`)
      .join(', ')}) | one per item |`,
  );
  console.log(`| wall time, submission to done | ${p.wallS.toFixed(0)} s | |`);
  console.log(`| machine load average at submission and at the end (${CORES} cores) | ${p.load.join(', ')} | |`);
  console.log(`| domains per minute | ${rate.toFixed(0)} | |`);
  console.log(`| instances' CPU per item | ${ms(perItem)} | |`);
  console.log(`| the same scan asked alone, CPU (idle median) | ${ms(p.aloneCpuMs)} | |`);
  console.log(`| the queue's own CPU per job (per item less alone) | ${ms(perItem - p.aloneCpuMs)} | |`);
  console.log(`| PostgreSQL CPU per item (every backend, shared server) | ${ms(p.postgresCpuMs / p.items)} | |`);
  console.log(`| the world's CPU per item (the fixture internet, same cores) | ${ms(p.worldCpuMs / p.items)} | |`);
  console.log(`| CPU bound: ${CORES} cores / CPU of one scan alone | ${bound.toFixed(0)} per minute | |`);
  console.log(`| throughput against the CPU bound | ${((100 * rate) / bound).toFixed(0)} % | >= 70 % |`);
  console.log(`| peak RSS per instance | ${p.peaks.map(mb).join(', ')} | < 300 MB each |`);
  console.log(
    `| /healthz p99 during the batch (${healthz.length} asked) | ${ms(percentile(healthz, 99))} | < 100 ms |`,
  );
  console.log(
    `| interactive Quick Scan median during the batch (${p.interactive.length} asked) / idle | ${ms(median(p.interactive))} / ${ms(p.interactiveIdle)} = ${(median(p.interactive) / p.interactiveIdle).toFixed(2)}x | <= 2x |`,
  );
  if (!p.statements || !p.engine) return;
  console.log(
    `\nPostgreSQL's busiest statements over the batch, per item (pg_stat_statements; execution time, which counts lock waits; the server is shared, so other work's statements may show):\n`,
  );
  statementTable(p.statements, p.items);
  console.log(`\nThe job engine's statements over the batch, per item (this run's pg-boss schema only):\n`);
  statementTable(p.engine, p.items);
}

function statementTable(statements: readonly Statement[], items: number): void {
  console.log('| time per item | calls per item | statement |\n|---|---|---|');
  for (const s of statements)
    console.log(
      `| ${ms(s.ms / items)} | ${(s.calls / items).toFixed(2)} | \`${s.text.replace(/\s+/g, ' ').slice(0, 100)}\` |`,
    );
}

interface SharedState {
  databaseUrl: string;
  redisUrl: string;
  /** pg_stat_statements' counters by statement now, or null where the extension is not installed. */
  statements(): Promise<Map<string, Statement> | null>;
  /** The job engine's schema: its statements name it. */
  engineSchema: string;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL schema and an emptied Redis database for the instances to share; null when either is down. */
async function sharedState(): Promise<SharedState | null> {
  const pgServer = process.env.DVS_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.DVS_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/11';
  const admin = new pg.Client({ connectionString: pgServer, connectionTimeoutMillis: 2000 });
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await admin.connect();
    await redis.connect();
    await redis.flushdb();
  } catch (err) {
    console.log(`(PostgreSQL and Redis are both needed: ${(err as Error).message}; skipped)`);
    await admin.end().catch(() => undefined);
    return null;
  } finally {
    redis.disconnect();
  }
  const schema = `dvs_fleet_${Date.now().toString(36)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(pgServer);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    databaseUrl: url.toString(),
    redisUrl,
    engineSchema: engineSchemaFor(schema),
    async statements() {
      try {
        const { rows } = await admin.query<{ id: string; calls: string; ms: number; text: string }>(
          `SELECT queryid::text AS id, calls, total_exec_time AS ms, query AS text FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return new Map(rows.map((r) => [r.id, { text: r.text, calls: Number(r.calls), ms: r.ms }]));
      } catch {
        return null;
      }
    },
    async drop() {
      for (const name of [schema, engineSchemaFor(schema)])
        await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`).catch(() => undefined);
      await admin.end();
    },
  };
}

/**
 * The two instances, signing with one key as docs/operations.md asks of instances sharing a ledger, and
 * serving one TLS certificate, the one the bench's client trusts.
 */
async function startInstances(env: Record<string, string>, root: string, into: Instance[]): Promise<Client> {
  const [a, b] = ['a', 'b'].map((n) => path.join(root, n)) as [string, string];
  mkdirSync(a, { mode: 0o700 });
  mkdirSync(path.join(b, 'tls'), { recursive: true, mode: 0o700 });
  into.push(await startInstance('a', env, a));
  for (const file of ['signing-key.json', 'agent-key.json', 'tls/localhost-cert.pem', 'tls/localhost-key.pem'])
    copyFileSync(path.join(a, file), path.join(b, file));
  into.push(await startInstance('b', env, b));
  return client(readFileSync(localCertificateFile(a), 'utf8'));
}

/** What a batch run needs: the instances, the world, the account's key and the spare domains. */
interface Run {
  api: Client;
  statements: SharedState['statements'];
  engineSchema: string;
  instances: [Instance, Instance];
  worldPid: number;
  key: string;
  /** A fleet domain no batch holds and nothing has scanned yet; undefined when none is left. */
  fresh(): string | undefined;
}

async function quickAlone(run: Run, instance: Instance): Promise<number | null> {
  const domain = run.fresh();
  if (!domain) return null;
  const r = await run.api.call(instance, 'POST', '/api/quickscan', { domain });
  if (r.status !== 200) throw new Error(`interactive Quick Scan: ${r.status} ${JSON.stringify(r.json)}`);
  return r.ms;
}

/** Median wall and CPU (both instances) of `n` requests asked one at a time on an idle service. */
async function alone(run: Run, n: number, ask: () => Promise<number | null>): Promise<{ wall: number; cpu: number }> {
  const cpu = () => run.instances.reduce((t, x) => t + processUsage(x.pid).cpuMs, 0);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = cpu();
    const wall = await ask();
    if (wall === null) break;
    walls.push(wall);
    cpus.push(cpu() - before);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

function usage(run: Run) {
  return {
    instances: run.instances.reduce((t, x) => t + processUsage(x.pid).cpuMs, 0),
    world: processUsage(run.worldPid).cpuMs,
    postgres: postgresCpuMs(),
  };
}

/** Polls the batch until it ends, giving up when no item has finished for five minutes. */
async function awaitBatch(run: Run, label: string, id: string, items: number): Promise<void> {
  let last = -1;
  let lastChange = performance.now();
  for (;;) {
    const status = (await run.api.call(run.instances[1], 'GET', `/api/batches/${id}`, undefined, run.key)).json as {
      status: string;
      done: number;
      failed: number;
    };
    if (status.status === 'done' || status.status === 'cancelled') break;
    if (status.done !== last) [last, lastChange] = [status.done, performance.now()];
    if (performance.now() - lastChange > 300_000)
      throw new Error(`${label}: no item finished for 5 minutes (${status.done} of ${items} done)`);
    process.stderr.write(`\r${label}: ${status.done}/${items} done, ${status.failed} failed   `);
    await sleep(2000);
  }
  process.stderr.write('\n');
}

async function results(run: Run, label: string, id: string): Promise<Record<string, number>> {
  const lines = String(
    (await run.api.call(run.instances[0], 'GET', `/api/batches/${id}/results`, undefined, run.key)).json,
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { domain: string; verdict?: string; error?: { code: string } });
  if (new Set(lines.map((r) => r.domain)).size !== lines.length)
    throw new Error(`${label}: an item has more than one result`);
  const verdicts: Record<string, number> = {};
  for (const r of lines) {
    const v = r.verdict ?? `error ${r.error?.code}`;
    verdicts[v] = (verdicts[v] ?? 0) + 1;
  }
  return verdicts;
}

/** One batch submitted to the first instance, with /healthz and interactive Quick Scans asked beside it. */
async function runBatch(
  run: Run,
  label: string,
  body: unknown,
  items: number,
  idle: { aloneCpuMs: number; quickWallMs: number },
): Promise<Phase> {
  const before = usage(run);
  const statementsBefore = await run.statements();
  const loadBefore = loadAverage();
  const started = performance.now();
  const accepted = await run.api.call(run.instances[0], 'POST', '/api/batches', body, run.key);
  if (accepted.status !== 202) throw new Error(`${label}: ${accepted.status} ${JSON.stringify(accepted.json)}`);
  const id = (accepted.json as { id: string }).id;
  const healthz: number[] = [];
  const interactive: number[] = [];
  let done = false;
  const beside = Promise.all([
    (async () => {
      for (let i = 0; !done; i++) {
        healthz.push((await run.api.call(run.instances[i % 2]!, 'GET', '/healthz')).ms);
        await sleep(200);
      }
    })(),
    (async () => {
      for (let wall; !done && (wall = await quickAlone(run, run.instances[1])) !== null; await sleep(2000))
        interactive.push(wall);
    })(),
  ]);
  await awaitBatch(run, label, id, items);
  const wallS = (performance.now() - started) / 1000;
  done = true;
  await beside;
  const after = usage(run);
  const statementsAfter = await run.statements();
  const verdicts = await results(run, label, id);
  return {
    label,
    items,
    wallS,
    instancesCpuMs: after.instances - before.instances,
    worldCpuMs: after.world - before.world,
    postgresCpuMs: after.postgres - before.postgres,
    aloneCpuMs: idle.aloneCpuMs,
    peaks: run.instances.map((x) => processUsage(x.pid).peak),
    healthz,
    interactive,
    interactiveIdle: idle.quickWallMs,
    results: Object.values(verdicts).reduce((t, n) => t + n, 0),
    verdicts,
    load: [loadBefore, loadAverage()],
    statements: statementsBefore && statementsAfter && busiest(statementsBefore, statementsAfter).slice(0, 8),
    engine:
      statementsBefore &&
      statementsAfter &&
      busiest(statementsBefore, statementsAfter).filter((s) => s.text.includes(`${run.engineSchema}.`)),
  };
}

async function measure(run: Run, opts: Options, env: Record<string, string>): Promise<void> {
  const tokens = (await dvs(['tokens', 'issue', '--count', String(opts.full + IDLE_FULL)], env)).trim().split('\n');
  const [a] = run.instances;
  const idleQuick = await alone(run, IDLE_QUICK, () => quickAlone(run, a));
  const idleFull = await alone(run, IDLE_FULL, async () => {
    const r = await run.api.call(a, 'POST', '/api/fullvalidation', {
      domain: run.fresh(),
      payment_token: tokens.pop(),
    });
    if (r.status !== 200) throw new Error(`Full Validation: ${r.status} ${JSON.stringify(r.json)}`);
    return r.ms;
  });
  // Full items are the first fleet domains as Quick Scan domains are, so a --full above --domains has its own.
  const fleetNames = (n: number) => Array.from({ length: n }, (_, i) => `f${i}.fleet.test`);
  const domains = fleetNames(opts.domains);
  if (opts.domains > 0) {
    const label = `${opts.domains.toLocaleString('en')} Quick Scan domains in one batch`;
    const idle = { aloneCpuMs: idleQuick.cpu, quickWallMs: idleQuick.wall };
    report(await runBatch(run, label, { mode: 'quick', domains }, opts.domains, idle));
  }
  if (opts.full > 0) {
    const label = `${opts.full.toLocaleString('en')} Full Validation items in one batch`;
    const items = fleetNames(opts.full).map((domain) => ({ domain, payment_token: tokens.pop() }));
    const idle = { aloneCpuMs: idleFull.cpu, quickWallMs: idleQuick.wall };
    report(await runBatch(run, label, { mode: 'full', items }, opts.full, idle));
  }
  console.log(
    `\nIdle, one at a time: a Quick Scan ${ms(idleQuick.wall)} wall, ${ms(idleQuick.cpu)} CPU; a Full Validation ${ms(idleFull.wall)} wall, ${ms(idleFull.cpu)} CPU (medians of ${IDLE_QUICK} and ${IDLE_FULL}).`,
  );
}

export default async function bench(args: readonly string[] = []): Promise<void> {
  const opts = options(args);
  if (!existsSync(path.join(ROOT, 'src', 'cli', 'accounts.ts'))) {
    console.log(
      '(the batch API of issue 32 is not in this tree: no `dvs accounts`, no /api/batches; nothing measured)',
    );
    return;
  }
  const shared = await sharedState();
  if (!shared) return;
  const batchDomains = Math.max(opts.domains, opts.full);
  const fleet = batchDomains + SPARE;
  console.log(
    `World: ${fleet.toLocaleString('en')} fleet domains at --rtt ${opts.rtt}; ${CORES} cores, shared with whatever else runs on the machine.`,
  );
  const world = await startWorldProcess({ fleet, rttMs: opts.rtt });
  const root = mkdtempSync(path.join(os.tmpdir(), 'dvs-fleet-bench-'));
  const instances: Instance[] = [];
  let api: Client | undefined;
  try {
    const env = {
      ...world.env,
      DVS_DATABASE_URL: shared.databaseUrl,
      DVS_REDIS_URL: shared.redisUrl,
      DVS_LOG_LEVEL: 'warn',
      DVS_QUICK_RATE_LIMIT: '100000',
    };
    api = await startInstances(env, root, instances);
    const limits = ['--domains-per-day', String(10 * fleet), '--max-batch', String(batchDomains)];
    const created = await dvs(['accounts', 'create', 'fleet-bench', ...limits, '--concurrency', '1000'], env);
    const key = created.trim().split('\n')[0]!;
    let spare = batchDomains;
    const fresh = () => (spare < fleet ? `f${spare++}.fleet.test` : undefined);
    const run = { api, instances: instances as [Instance, Instance], worldPid: world.pid, key, fresh };
    await measure({ ...run, statements: () => shared.statements(), engineSchema: shared.engineSchema }, opts, env);
  } finally {
    await api?.close();
    for (const instance of instances) await instance.stop();
    await world.stop();
    await shared.drop();
    rmSync(root, { recursive: true, force: true });
  }
}
