// The servers the service bench loads, in a process of their own so the load generator does not share their
// event loop: the service (fixture internet's good site warm in its cache) and bare Koa routes on HTTPS with
// the same certificate: one answering {"ok":true}, one answering the bytes of the service's Quick Scan of
// good.test (fetched from the service at its first request), so the cost of the answer's size on the wire
// can be told from the cost of the service's path, and one answering its whole br answer (every header the
// service sends but the date and the connection's, and the coded bytes), what sending that answer costs in Koa.
// Tells the parent their URLs and the certificate, then serves until killed. Between `begin` and `end` messages
// it measures its own CPU time (and, with BENCH_CPU_PROF=<dir>, records a CPU profile of that case alone), so a
// case's cost can be read apart from the rest of the run. It runs from its bundle, as `dvs serve` runs the
// service: through tsx's loader, the cached Quick Scan measured 65-68 % of the bare route in this session's
// runs, from the bundle 66-77 %.
import { mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import https from 'node:https';
import { Session, type Profiler } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/lib/config.ts';
import { createLogger } from '../src/lib/log.ts';
import { logDestination } from '../src/lib/log-destination.ts';
import { boundHeapGrowth } from '../src/server/heap-growth.ts';
import { startService } from '../src/server/index.ts';
import { MemoryGate } from '../test/server/memory-gate.ts';
import { startWorld } from '../test/world/index.ts';
import type { BenchServers } from './bench-servers.ts';

/** What the parent sends around one measured case, and what it hears back at its end. */
export type CaseMessage = { op: 'begin'; name: string } | { op: 'end'; name: string };
export interface CaseCost {
  /** CPU time (user and system) this process spent during the case, in microseconds. */
  cpuUs: number;
}

/** The fixture internet and the service, set up as `dvs serve` sets its process up; the certificate it serves. */
async function startServiceAndWorld() {
  boundHeapGrowth();
  const world = await startWorld();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-bench-'));
  const config = loadConfig({
    ...world.env,
    DVS_PORT: '0',
    DVS_HOST: '127.0.0.1',
    DVS_DATA_DIR: dataDir,
    // As served: a log line per request (written to /dev/null, so its cost is the logger's, not a terminal's).
    DVS_LOG_LEVEL: 'info',
    // As a monitored deployment serves: with a metrics listener every answer is counted (without one, nothing is).
    DVS_METRICS_PORT: '0',
    DVS_QUICK_RATE_LIMIT: '100000',
  });
  const devNull = openSync('/dev/null', 'w');
  const gate = new MemoryGate();
  const service = await startService(config, {
    // As served: the service's own destination (buffered per event-loop turn), pointed at /dev/null.
    log: createLogger(
      config,
      logDestination((text) => writeSync(devNull, text)),
    ),
    payments: { gate, certificates: gate, close: async () => {} },
  });
  const cert = readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8');
  const key = readFileSync(path.join(dataDir, 'tls', 'localhost-key.pem'), 'utf8');
  return { world, service, cert, key };
}

interface Answer {
  headers: Record<string, string>;
  bytes: Buffer;
}
/** Headers of the answer that belong to its connection or its moment, not to the answer. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'content-length']);

/** The service's Quick Scan of good.test, asked with `acceptEncoding` (or without the header). */
async function fetchQuickAnswer(quickUrl: string, ca: string, acceptEncoding?: string): Promise<Answer> {
  const res = await request(quickUrl, {
    method: 'POST',
    dispatcher: new Agent({ connect: { ca, servername: 'localhost' } }),
    headers: { 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    body: JSON.stringify({ domain: 'good.test' }),
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (!NOT_REPLAYED.has(name) && value !== undefined) headers[name] = String(value);
  return { headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

/** The bare Koa routes on HTTPS, with the service's certificate, listening. */
async function startBare(quickUrl: string, cert: string, key: string): Promise<https.Server> {
  const bare = new Koa();
  const router = new Router();
  router.post('/bare', (ctx) => {
    ctx.body = { ok: true };
  });
  let quickAnswer: Promise<Answer> | null = null;
  router.post('/same-bytes', async (ctx) => {
    const { headers, bytes } = await (quickAnswer ??= fetchQuickAnswer(quickUrl, cert));
    ctx.type = headers['content-type']!;
    ctx.body = bytes;
  });
  let brAnswer: Promise<Answer> | null = null;
  router.post('/same-answer', async (ctx) => {
    const { headers, bytes } = await (brAnswer ??= fetchQuickAnswer(quickUrl, cert, 'br'));
    ctx.set(headers);
    ctx.body = bytes;
  });
  bare.use(router.routes());
  const handle = bare.callback();
  // Koa answers every error itself (ctx.onerror), so the listener lets its promise go.
  const server = https.createServer({ cert, key, minVersion: 'TLSv1.2' }, (req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}

/** Answers the parent's begin and end messages with the CPU time between them (and a profile, when asked). */
function measureCases(): void {
  const profileDir = process.env.BENCH_CPU_PROF;
  const session = profileDir ? new Session() : null;
  session?.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session!.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  let caseStart = process.cpuUsage();
  process.on('message', (m: CaseMessage) => {
    void (async () => {
      if (m.op === 'begin') {
        if (session) {
          await post('Profiler.enable');
          await post('Profiler.start');
        }
        caseStart = process.cpuUsage();
        process.send!({ op: 'begun' });
        return;
      }
      const used = process.cpuUsage(caseStart);
      if (session) {
        const { profile } = (await post('Profiler.stop')) as { profile: Profiler.Profile };
        writeFileSync(path.join(profileDir!, `service-${m.name}.cpuprofile`), JSON.stringify(profile));
      }
      process.send!({ cpuUs: used.user + used.system } satisfies CaseCost);
    })();
  });
}

// Run from its build (bench/bundled.js), as `dvs serve` runs the service from dist/.
void (async () => {
  const { world, service, cert, key } = await startServiceAndWorld();
  const quickUrl = `https://127.0.0.1:${service.port}/api/quickscan`;
  const bareServer = await startBare(quickUrl, cert, key);
  const barePort = (bareServer.address() as AddressInfo).port;
  process.send!({
    quickUrl,
    healthUrl: `https://127.0.0.1:${service.port}/healthz`,
    domains: world.sites.flatMap((s) => [s.domain, ...s.aliases]),
    bareUrl: `https://127.0.0.1:${barePort}/bare`,
    sameBytesUrl: `https://127.0.0.1:${barePort}/same-bytes`,
    sameAnswerUrl: `https://127.0.0.1:${barePort}/same-answer`,
    ca: cert,
  } satisfies BenchServers);
  measureCases();
  process.on('SIGTERM', () => {
    void Promise.all([service.close(), world.stop(), new Promise((r) => bareServer.close(r))]).then(() =>
      process.exit(0),
    );
  });
})();
