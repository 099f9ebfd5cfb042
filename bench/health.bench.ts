// /healthz latency while 200 Quick Scans of distinct domains are sent at once: health answers from outside the
// bound on scans, so it must stay fast however many are queued or refused. The service runs in a child process
// (bench/service-server.ts); the domains are the fixture internet's sites and aliases, then names that do not
// exist (their pre-scan check still asks the resolver).
import { Agent, request } from 'undici';
import { forkBenchServers } from './bench-servers.ts';
import { percentile } from './load.ts';

const SCANS = 200;
const HEALTH_EVERY_MS = 10;

export default async function bench(): Promise<void> {
  const { child, servers: ready } = await forkBenchServers();
  try {
    const connect = { ca: ready.ca, servername: 'localhost', timeout: 300_000 };
    const scans = new Agent({ connect, connections: SCANS });
    const health = new Agent({ connect, connections: 1 });
    const domains = Array.from({ length: SCANS }, (_, i) => ready.domains[i] ?? `absent-${i}.test`);
    const statuses = new Map<string, number>();
    let running = true;
    const flood = Promise.all(
      domains.map(async (domain) => {
        // A connection the service drops (its client handshake limit on a saturated machine) is counted, not fatal.
        const answer = await request(ready.quickUrl, {
          method: 'POST',
          dispatcher: scans,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ domain }),
          headersTimeout: 0,
          bodyTimeout: 0,
        }).then(
          async (res) => {
            await res.body.dump();
            return String(res.statusCode);
          },
          (err: NodeJS.ErrnoException) => err.code ?? err.name,
        );
        statuses.set(answer, (statuses.get(answer) ?? 0) + 1);
      }),
    ).finally(() => (running = false));
    const latencies: number[] = [];
    while (running) {
      const t0 = performance.now();
      const res = await request(ready.healthUrl, { dispatcher: health });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, HEALTH_EVERY_MS));
    }
    await flood;
    await Promise.all([scans.close(), health.close()]);
    latencies.sort((a, b) => a - b);
    const answers = [...statuses].map(([s, n]) => `${n}x ${s}`).join(', ');
    console.log('| figure | value |\n|---|---|');
    console.log(`| Quick Scans sent at once (distinct domains) | ${SCANS}: ${answers} |`);
    console.log(`| /healthz samples during the flood | ${latencies.length} |`);
    console.log(`| /healthz latency p50 | ${percentile(latencies, 50).toFixed(1)} ms |`);
    console.log(`| /healthz latency p99 (goal < 100 ms) | ${percentile(latencies, 99).toFixed(1)} ms |`);
  } finally {
    child.kill('SIGTERM');
  }
}
