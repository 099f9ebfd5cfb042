// Requests per second of a cached Quick Scan (the whole service path: request log, response signing, errors,
// security headers, body parsing, validation, cache) next to a bare Koa route on HTTPS, on this machine in the
// same run. The servers run in a child process; autocannon loads them from this one. BENCH_CPU_PROF=<dir>
// writes a CPU profile of the servers there.
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

interface Ready {
  quickUrl: string;
  bareUrl: string;
  ca: string;
}

const DURATION_S = 5;
const CONNECTIONS = 10;

async function load(url: string, ca: string, body: string, amount?: number): Promise<autocannon.Result> {
  const size = amount === undefined ? { connections: CONNECTIONS, duration: DURATION_S } : { connections: 1, amount };
  return autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    tlsOptions: { ca },
    ...size,
  });
}

export default async function bench(): Promise<void> {
  const child = fork(path.join(import.meta.dirname, 'service-server.ts'), {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_CPU_PROF] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`the bench servers exited with ${code}`)));
    });
    const quickBody = JSON.stringify({ domain: 'good.test' });
    // The first request scans and fills the cache; everything measured after it is a cache hit.
    const warm = await load(ready.quickUrl, ready.ca, quickBody, 1);
    if (warm.non2xx > 0) throw new Error(`the quick scan warm-up got ${warm.non2xx} non-2xx answers`);
    const rows: [string, autocannon.Result][] = [
      ['bare Koa route (HTTPS)', await load(ready.bareUrl, ready.ca, '{}')],
      ['cached Quick Scan (POST /api/quickscan)', await load(ready.quickUrl, ready.ca, quickBody)],
    ];
    console.log(`${CONNECTIONS} connections, ${DURATION_S} s each, servers in a child process\n`);
    console.log(
      '| case | requests/s (mean) | latency p50 | latency p99 | non-2xx | errors |\n|---|---|---|---|---|---|',
    );
    for (const [name, r] of rows) {
      console.log(
        `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} ms | ${r.latency.p99} ms | ${r.non2xx} | ${r.errors} |`,
      );
    }
    const [bare, quick] = rows.map(([, r]) => r.requests.average) as [number, number];
    console.log(`\ncached Quick Scan at ${((quick / bare) * 100).toFixed(0)} % of the bare route's rate`);
  } finally {
    child.kill('SIGTERM');
  }
}
