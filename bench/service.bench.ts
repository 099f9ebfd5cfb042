// Requests per second of a cached Quick Scan (the whole service path through Koa: request id and log line,
// metrics, body read and validated, cache lookup, security headers and response signature) next to a bare Koa route on HTTPS, on this machine in the same run. The servers run in one child
// process with the same certificate and TLS settings; one client in this process (bench/load.ts) loads each case
// in turn with the same connections and duration. A third case, a bare route sending the Quick Scan's own bytes,
// tells what the answer's size costs on the wire (both ends pay for it: TLS, the kernel, the client reading it)
// apart from the service's path; a fourth sends the Quick Scan's whole br answer (its headers and coded bytes)
// from a bare route, which is what any path through Koa pays for that answer, so the service's own path is read
// against it.
// The Quick Scan is loaded twice: with Accept-Encoding as browsers, undici, curl --compressed and httpx send it
// (answered in br, coded once per cache entry), and without it (answered uncoded), each on its own line.
// Throughput swings when other work shares the machine, so the servers' own CPU time per request is printed
// too, and the client's: the client shares the machine's cores and reads every answer, so where it is busy
// about a whole core, its own speed caps the case's rate, whatever the server's. The cases are loaded in rounds
// (figures: the median round). BENCH_CPU_PROF=<dir> writes a CPU profile of each case alone there
// (service-<case>.cpuprofile, from the last round).
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'undici';
import { forkBenchServers, type BenchServers } from './bench-servers.ts';
import { load, type LoadResult } from './load.ts';
import { median } from './median.ts';
import type { CaseCost, CaseMessage } from './service-server.ts';

interface Case {
  name: string;
  what: string;
  url: (r: BenchServers) => string;
  body: string;
  /** Request headers besides the content type. */
  headers?: Record<string, string>;
  /** The Content-Encoding the answer must come in (checked before loading; undefined: none). */
  coding?: string;
}

const DURATION_S = 2;
const ROUNDS = 5;
const CONNECTIONS = 10;

const CASES: Case[] = [
  {
    name: 'bare',
    what: 'bare Koa route (HTTPS): a router and one handler answering {"ok":true}, nothing else',
    url: (r) => r.bareUrl,
    body: '{}',
  },
  {
    name: 'same-bytes',
    what: "bare Koa route sending the cached Quick Scan's bytes (same size and content type), nothing else",
    url: (r) => r.sameBytesUrl,
    body: '{}',
  },
  {
    name: 'same-answer',
    what: "bare Koa route sending the cached Quick Scan's br answer as the service sends it (its headers, signature included, and coded bytes), nothing else",
    url: (r) => r.sameAnswerUrl,
    body: '{}',
    coding: 'br',
  },
  {
    name: 'quick',
    what: 'cached Quick Scan (POST /api/quickscan, good.test): the service as it serves, a hit, sending Accept-Encoding: gzip, deflate, br as real clients do (answered in br)',
    url: (r) => r.quickUrl,
    body: JSON.stringify({ domain: 'good.test' }),
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    coding: 'br',
  },
  {
    name: 'quick-identity',
    what: 'the same cached Quick Scan without Accept-Encoding (answered uncoded, the same bytes as same-bytes)',
    url: (r) => r.quickUrl,
    body: JSON.stringify({ domain: 'good.test' }),
  },
];

/** The case's load: for the measured duration, or `amount` answers on one connection. */
function loadCase(c: Case, ready: BenchServers, amount?: number): Promise<LoadResult> {
  const options = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', ...c.headers },
    body: c.body,
    ca: ready.ca,
    connections: amount === undefined ? CONNECTIONS : 1,
  };
  return load(c.url(ready), options, amount === undefined ? { durationMs: DURATION_S * 1000 } : { amount });
}

/** Fails the bench when a case is not answered 200 in the coding it is meant to measure. */
async function checkCoding(c: Case, ready: BenchServers): Promise<void> {
  const dispatcher = new Agent({ connect: { ca: ready.ca } });
  try {
    const res = await request(c.url(ready), {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', ...c.headers },
      body: c.body,
    });
    await res.body.dump();
    const coding = res.headers['content-encoding'];
    if (res.statusCode !== 200 || coding !== c.coding)
      throw new Error(`${c.name} answered ${res.statusCode} in ${String(coding)}, not 200 in ${String(c.coding)}`);
  } finally {
    await dispatcher.close();
  }
}

/** Sends one message to the servers and waits for their answer. */
function ask<T>(child: ChildProcess, message: CaseMessage): Promise<T> {
  return new Promise<T>((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

/** One case's load: its results, and the servers' and the client's CPU time while it ran. */
interface Measured {
  r: LoadResult;
  cpuUs: number;
  clientUs: number;
}

/** One case under load, with the servers' and the client's CPU time while it ran. */
async function measure(child: ChildProcess, ready: BenchServers, c: Case): Promise<Measured> {
  await ask(child, { op: 'begin', name: c.name });
  const t0 = process.cpuUsage();
  const r = await loadCase(c, ready);
  const client = process.cpuUsage(t0);
  const { cpuUs } = await ask<CaseCost>(child, { op: 'end', name: c.name });
  return { r, cpuUs, clientUs: client.user + client.system };
}

export default async function bench(): Promise<void> {
  const { child, servers: ready } = await forkBenchServers();
  try {
    // The first request scans and fills the cache; everything measured after it is a cache hit. A short load of
    // each case first lets the JIT settle, so neither case pays for compiling the code both share.
    const quick = CASES.find((c) => c.name === 'quick')!;
    const warm = await loadCase(quick, ready, 1);
    if (warm.non2xx + warm.errors > 0) throw new Error('the quick scan warm-up was not answered 200');
    for (const c of CASES) await checkCoding(c, ready);
    for (const c of CASES) await loadCase(c, ready, 2000);
    // Every case once per round, round after round: a burst of other work on the machine (seen here to halve its
    // speed for seconds) falls on the cases of one round, and each figure below is the median of the rounds'.
    const rounds: Map<string, Measured>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const round = new Map<string, Measured>();
      for (const c of CASES) round.set(c.name, await measure(child, ready, c));
      rounds.push(round);
    }
    console.log(
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per case, all servers in one child process, one client (undici); each row is the case's median round by rate\n`,
    );
    for (const c of CASES) console.log(`- ${c.what}`);
    console.log(
      '\n| case | requests/s (mean) | latency p50 | latency p99 | server CPU per request | client CPU per request | client busy | body bytes per answer | non-2xx | errors |\n|---|---|---|---|---|---|---|---|---|---|',
    );
    const perRequest = ({ r, cpuUs }: Measured) => cpuUs / Math.max(1, r.requests);
    const clientPerRequest = ({ r, clientUs }: Measured) => clientUs / Math.max(1, r.requests);
    // Of one core: near 100 %, the load generator, not the server, sets the case's rate.
    const clientBusy = ({ clientUs }: Measured) => clientUs / (DURATION_S * 1e6);
    for (const c of CASES) {
      const all = rounds.map((round) => round.get(c.name)!);
      const rate = median(all.map((m) => m.r.rate));
      const { r } = all.find((m) => m.r.rate === rate)!;
      console.log(
        `| ${c.name} | ${rate.toFixed(0)} | ${r.p50Ms.toFixed(1)} ms | ${r.p99Ms.toFixed(1)} ms | ${median(all.map(perRequest)).toFixed(0)} us | ${median(all.map(clientPerRequest)).toFixed(0)} us | ${(median(all.map(clientBusy)) * 100).toFixed(0)} % | ${r.bodyBytes.toFixed(0)} | ${all.reduce((n, m) => n + m.r.non2xx, 0)} | ${all.reduce((n, m) => n + m.r.errors, 0)} |`,
      );
    }
    const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
    /** `a` against `b`: the median of the rounds' ratios of rates, and of CPU per request (b's over a's). */
    const against = (a: string, b: string, what: string) => {
      const rates = rounds.map((round) => round.get(a)!.r.rate / round.get(b)!.r.rate);
      const cpus = rounds.map((round) => perRequest(round.get(b)!) / perRequest(round.get(a)!));
      console.log(`${what.replace('%', pct(median(rates)))}\n  (by server CPU per request: ${pct(median(cpus))})`);
    };
    console.log('');
    const LINES: [string, string, string][] = [
      ['quick', 'bare', "cached Quick Scan (br, as real clients ask) at % of the bare route's rate"],
      ['same-bytes', 'bare', "the same bytes from a bare route at % of the bare route's rate"],
      [
        'same-answer',
        'bare',
        "the same br answer from a bare route (what sending it costs in Koa, with no path before it) at % of the bare route's rate",
      ],
      ['quick', 'same-answer', "cached Quick Scan (br) at % of the same answer's rate: the service's path"],
      ['quick-identity', 'bare', "cached Quick Scan without Accept-Encoding at % of the bare route's rate"],
      [
        'quick-identity',
        'same-bytes',
        "cached Quick Scan without Accept-Encoding at % of the same bytes' rate: the service's path",
      ],
    ];
    for (const [a, b, what] of LINES) against(a, b, what);
  } finally {
    child.kill('SIGTERM');
  }
}
