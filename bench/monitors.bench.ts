// Issue 33: monitors on the job engine, over PostgreSQL. Two figures:
//
// 1. The spread: --count monitors (10,000) on P1D created through the service's own path (each token held in the
//    ledger, the monitor's rows and first job in one transaction), then their due times as the engine holds them
//    (the jobs' start_after): a histogram per hour, and the busiest and quietest minutes against the mean.
// 2. The scheduler's own cost per run: --runs runs (1,000) of monitors due every second, each through the whole
//    path of a run (the job fetched, the run claimed, its token's state read from the ledger, the run recorded
//    with its token spent, its next job and its events) with the Full Validation replaced by one that answers at
//    once with a signed certificate (what a scan costs is the scan bench's figure). Wall time, and the CPU of this
//    process per run; PostgreSQL's own is not in it (other work shares the server).
//
// `npm run bench -- monitors [--count 10000] [--runs 1000]`; PostgreSQL: DVS_BENCH_POSTGRES_URL (default the test
// server), in a schema of its own, dropped afterwards with the engine's.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { JobQueue } from '../src/batches/job-queue.ts';
import { MonitorStore } from '../src/batches/monitor-store.ts';
import { openQueueDatabase, type QueueDatabase } from '../src/batches/queue-database.ts';
import { WebhookStore } from '../src/batches/webhook-store.ts';
import { createLogger } from '../src/lib/log.ts';
import { loadConfig } from '../src/lib/config.ts';
import type { Account } from '../src/payments/accounts.ts';
import { Ledger } from '../src/payments/ledger.ts';
import { openPostgresStore } from '../src/payments/postgres-store.ts';
import { Monitors, MONITOR_QUEUE } from '../src/service/monitors.ts';
import type { HeldOutcome } from '../src/service/full-validations.ts';
import { Webhooks } from '../src/service/webhooks.ts';
import { certificateText, issueCertificate, type CertifiableReport } from '../src/signing/certificate.ts';
import { keyFromSeed, SIGNING_KID } from '../src/signing/keys.ts';
import type { Report } from '../src/engine/types.ts';

function option(args: readonly string[], name: string, fallback: number): number {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const raw = i < 0 ? undefined : args[i]!.includes('=') ? args[i]!.slice(args[i]!.indexOf('=') + 1) : args[i + 1];
  const n = Number(raw ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

const DAY = 86_400_000;
const RUN_INTERVAL = 'PT1S';
const TOKENS_PER_RUN_MONITOR = 5;
const CONCURRENCY = 8;
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

interface Bench {
  db: QueueDatabase;
  queue: JobQueue;
  ledger: Ledger;
  monitors: Monitors;
  account: Account;
  close(): Promise<void>;
}

/** The validation a run makes, answering at once with one real signed certificate. */
async function instantValidation(): Promise<{ runHeld: () => Promise<HeldOutcome> }> {
  const report = JSON.parse(
    readFileSync(path.join(import.meta.dirname, '../test/golden/good.test.report.json'), 'utf8'),
  ) as CertifiableReport;
  const certificate = issueCertificate({
    report,
    issuer: { baseUrl: 'https://dvs.example' },
    key: await keyFromSeed(SIGNING_KID, new Uint8Array(randomBytes(32)), '2027-01-01T00:00:00Z'),
  });
  const outcome: HeldOutcome = {
    kind: 'issued',
    certificate,
    body: certificateText(certificate),
    report: report as unknown as Report,
  };
  return { runHeld: async () => outcome };
}

/** Hands out at most `n` places at once, as the service's batch slots do. */
function slots(n: number) {
  let free = n;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    acquireBatch: async () => {
      if (free > 0) free--;
      else await new Promise<void>((r) => waiting.push(r));
      return release;
    },
  };
}

async function open(url: string, minIntervalMs: number): Promise<Bench> {
  const config = loadConfig({ DVS_DATABASE_URL: url, DVS_DATA_DIR: '/nonexistent', DVS_LOG_LEVEL: 'warn' });
  const log = createLogger(config);
  const onError = (err: Error) => log.warn({ err: err.message }, 'queue database');
  const db = await openQueueDatabase(config, onError);
  const queue = await JobQueue.start(db, { maintenanceSeconds: 30, onError });
  await Monitors.prepare(queue);
  await Webhooks.prepare(queue);
  const ledger = new Ledger(await openPostgresStore(url), {
    mode: 'test',
    tokenTtlSeconds: 90 * 86_400,
    reservationLeaseSeconds: 900,
  });
  const webhookStore = new WebhookStore(db);
  const webhooks = new Webhooks({
    engine: async () => ({ store: webhookStore, queue }),
    send: async () => ({ status: 200 }),
    retryDivisor: 1,
    overlapSeconds: 86_400,
    log,
  });
  const store = new MonitorStore(db);
  const monitors = new Monitors({
    engine: async () => ({ store, queue }),
    tokens: ledger,
    validations: await instantValidation(),
    slots: slots(CONCURRENCY),
    events: (tx, account, type, data) => webhooks.publish(tx, account, type, data),
    minIntervalMs,
    leaseSeconds: 60,
    baseUrl: 'https://dvs.example',
    log,
  });
  const account = (await ledger.accounts.create(`bench-${randomBytes(3).toString('hex')}`, {})).account;
  return {
    db,
    queue,
    ledger,
    monitors,
    account,
    async close() {
      await monitors.stop();
      await queue.stop();
      await db.close();
      await ledger.close();
    },
  };
}

async function spread(b: Bench, count: number): Promise<void> {
  const tokens = (await b.ledger.issue({ count, source: 'bench' })).map((t) => t.token);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await b.monitors.create(b.account, `m${i}.example.com`, 'P1D', [tokens[i]!]);
  const wall = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  console.log(
    `${count} monitors on P1D created in ${(wall / 1000).toFixed(1)} s: ${(wall / count).toFixed(2)} ms and ${(cpu / count).toFixed(2)} ms of this process's CPU each (token held in the ledger, rows and first job in one transaction)`,
  );
  const rows = await b.db.query<{ at: Date }>(
    `SELECT start_after AS at FROM ${b.db.engineSchema}.job WHERE name = $1 AND state = 'created'`,
    [MONITOR_QUEUE],
  );
  const hours = new Array<number>(24).fill(0);
  const minutes = new Array<number>(1440).fill(0);
  for (const { at } of rows) {
    const ms = new Date(at).getTime() % DAY;
    hours[Math.floor(ms / 3_600_000)]!++;
    minutes[Math.floor(ms / 60_000)]!++;
  }
  const mean = rows.length / 1440;
  const widest = Math.max(...hours);
  console.log(`\ndue runs per hour of the day (UTC), ${rows.length} jobs:`);
  hours.forEach((n, h) =>
    console.log(
      `  ${String(h).padStart(2, '0')}:00  ${String(n).padStart(5)}  ${'#'.repeat(Math.round((n / widest) * 50))}`,
    ),
  );
  const sorted = [...minutes].sort((a, b) => a - b);
  console.log(
    `per minute: mean ${mean.toFixed(2)}, busiest ${sorted.at(-1)}, quietest ${sorted[0]}, median ${sorted[720]}, p99 ${sorted[Math.floor(1440 * 0.99)]}; minutes with none: ${minutes.filter((n) => n === 0).length} of 1440`,
  );
}

async function runs(b: Bench, wanted: number): Promise<void> {
  const count = Math.ceil(wanted / TOKENS_PER_RUN_MONITOR);
  const total = count * TOKENS_PER_RUN_MONITOR;
  const tokens = (await b.ledger.issue({ count: total, source: 'bench' })).map((t) => t.token);
  for (let i = 0; i < count; i++)
    await b.monitors.create(
      b.account,
      `r${i}.example.org`,
      RUN_INTERVAL,
      tokens.slice(i * TOKENS_PER_RUN_MONITOR, (i + 1) * TOKENS_PER_RUN_MONITOR),
    );
  const recorded = async () =>
    (await b.db.query<{ n: number }>('SELECT count(*)::int AS n FROM monitor_runs WHERE finished_at IS NOT NULL'))[0]!
      .n;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await b.monitors.start();
  let done = 0;
  while (done < total) {
    await new Promise((r) => setTimeout(r, 200));
    done = await recorded();
  }
  const wall = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  const repeated = await b.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM monitor_runs GROUP BY monitor_id, due_at HAVING count(*) > 1) d',
  );
  console.log(
    `\n${total} runs of ${count} monitors due every second (${TOKENS_PER_RUN_MONITOR} tokens each, ${CONCURRENCY} at once), the validation answering at once:`,
  );
  console.log(
    `  wall ${(wall / 1000).toFixed(1)} s, ${(total / (wall / 1000)).toFixed(0)} runs/s; this process's CPU ${(cpu / total).toFixed(2)} ms per run (fetch, claim, token state, record with next job and events); due runs run twice: ${repeated[0]!.n}`,
  );
}

export default async function monitorsBench(args: readonly string[]): Promise<void> {
  const count = option(args, 'count', 10_000);
  const wanted = option(args, 'runs', 1000);
  const server = process.env.DVS_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`(PostgreSQL is needed: ${(err as Error).message}; skipped)`);
    return;
  }
  console.log(`load average at start: ${loadAverage()}`);
  const schemas: string[] = [];
  const fresh = async () => {
    const schema = `dvs_monitors_${randomBytes(4).toString('hex')}`;
    schemas.push(schema, `${schema}_pgboss`);
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(server);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  };
  try {
    const spreadBench = await open(await fresh(), DAY);
    try {
      await spread(spreadBench, count);
    } finally {
      await spreadBench.close();
    }
    const runBench = await open(await fresh(), 1000);
    try {
      await runs(runBench, wanted);
    } finally {
      await runBench.close();
    }
    console.log(`load average at end: ${loadAverage()}`);
  } finally {
    for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}
