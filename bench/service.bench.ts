// Requests per second of a cached Quick Scan (the whole service path: the lane that answers hits before Koa, with
// its request id and log line, metrics, body read and validated, cache lookup, security headers and response
// signature) next to a bare Koa route on HTTPS, on this machine in the same run. The servers run in one child
// process with the same certificate and TLS settings; one autocannon client in this process loads each case in
// turn with the same connections and duration. A third case, a bare route sending the Quick Scan's own bytes,
// tells what the answer's size costs on the wire (both ends pay for it: TLS, the kernel, the client reading it)
// apart from the service's path; a fourth sends the Quick Scan's whole br answer (its headers and coded bytes)
// from a bare route, which is what any path through Koa pays for that answer, so the service's own path is read
// against it.
// The Quick Scan is loaded twice: with Accept-Encoding as browsers, undici, curl --compressed and httpx send it
// (answered in br, coded once per cache entry), and without it (answered uncoded), each on its own line.
// Throughput swings when other work shares the machine, so the servers' own CPU time per request is printed
// too. BENCH_CPU_PROF=<dir> writes a CPU profile of each case alone there (service-<case>.cpuprofile).
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { forkBenchServers, type BenchServers } from './bench-servers.ts';
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

const DURATION_S = 5;
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

async function load(
  url: string,
  ca: string,
  body: string,
  amount?: number,
  headers: Record<string, string> = {},
): Promise<autocannon.Result> {
  const size = amount === undefined ? { connections: CONNECTIONS, duration: DURATION_S } : { connections: 1, amount };
  return autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    tlsOptions: { ca },
    ...size,
  });
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

/** One case under load, with the servers' CPU time while it ran. */
async function measure(
  child: ChildProcess,
  ready: BenchServers,
  c: Case,
): Promise<{ r: autocannon.Result; cpuUs: number }> {
  await ask(child, { op: 'begin', name: c.name });
  const r = await load(c.url(ready), ready.ca, c.body, undefined, c.headers);
  const { cpuUs } = await ask<CaseCost>(child, { op: 'end', name: c.name });
  return { r, cpuUs };
}

export default async function bench(): Promise<void> {
  const { child, servers: ready } = await forkBenchServers();
  try {
    // The first request scans and fills the cache; everything measured after it is a cache hit. A short load of
    // each case first lets the JIT settle, so neither case pays for compiling the code both share.
    const warm = await load(ready.quickUrl, ready.ca, CASES.find((c) => c.name === 'quick')!.body, 1);
    if (warm.non2xx > 0) throw new Error(`the quick scan warm-up got ${warm.non2xx} non-2xx answers`);
    for (const c of CASES) await checkCoding(c, ready);
    for (const c of CASES) await load(c.url(ready), ready.ca, c.body, 2000, c.headers);
    const rows: { c: Case; r: autocannon.Result; cpuUs: number }[] = [];
    for (const c of CASES) rows.push({ c, ...(await measure(child, ready, c)) });
    console.log(
      `${CONNECTIONS} connections, ${DURATION_S} s each, all servers in one child process, one client; bytes per answer counts the headers too\n`,
    );
    for (const { c } of rows) console.log(`- ${c.what}`);
    console.log(
      '\n| case | requests/s (mean) | latency p50 | latency p99 | server CPU per request | bytes per answer | non-2xx | errors |\n|---|---|---|---|---|---|---|---|',
    );
    const perRequest = rows.map(({ r, cpuUs }) => cpuUs / Math.max(1, r.requests.total));
    rows.forEach(({ c, r }, i) => {
      console.log(
        `| ${c.name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} ms | ${r.latency.p99} ms | ${perRequest[i]!.toFixed(0)} us | ${(r.throughput.total / Math.max(1, r.requests.total)).toFixed(0)} | ${r.non2xx} | ${r.errors} |`,
      );
    });
    const rate = (name: string) => rows.find((r) => r.c.name === name)!.r.requests.average;
    const cpu = (name: string) => perRequest[rows.findIndex((r) => r.c.name === name)]!;
    const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
    console.log(
      `\ncached Quick Scan (br, as real clients ask) at ${pct(rate('quick') / rate('bare'))} of the bare route's rate`,
    );
    console.log(`  (by server CPU per request: ${pct(cpu('bare') / cpu('quick'))})`);
    console.log(
      `the same bytes from a bare route at ${pct(rate('same-bytes') / rate('bare'))} of the bare route's rate`,
    );
    console.log(`  (by server CPU per request: ${pct(cpu('bare') / cpu('same-bytes'))})`);
    console.log(
      `the same br answer from a bare route (what sending it costs in Koa, with no path before it) at ${pct(rate('same-answer') / rate('bare'))} of the bare route's rate`,
    );
    console.log(`  (by server CPU per request: ${pct(cpu('bare') / cpu('same-answer'))})`);
    console.log(
      `cached Quick Scan (br) at ${pct(rate('quick') / rate('same-answer'))} of the same answer's rate: the service's path`,
    );
    console.log(`  (by server CPU per request: ${pct(cpu('same-answer') / cpu('quick'))})`);
    console.log(
      `cached Quick Scan without Accept-Encoding at ${pct(rate('quick-identity') / rate('bare'))} of the bare route's rate`,
    );
    console.log(`  (by server CPU per request: ${pct(cpu('bare') / cpu('quick-identity'))})`);
    console.log(
      `cached Quick Scan without Accept-Encoding at ${pct(rate('quick-identity') / rate('same-bytes'))} of the same bytes' rate: the service's path`,
    );
    console.log(`  (by server CPU per request: ${pct(cpu('same-bytes') / cpu('quick-identity'))})`);
  } finally {
    child.kill('SIGTERM');
  }
}
