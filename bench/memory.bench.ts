// Resident memory of the service while 100 Full Validations of the fixture internet's good site are sent at
// once: once with the bound lifted (all 100 run together: the memory per scan, for sizing), once with the
// default bound (what a flood costs a service as shipped: the rest are answered 503 busy). The service runs in a
// child process from its bundle, as `dvs serve` does, the fixture internet in this one. Goal: peak RSS < 300 MB
// with 100 running.
import { fork } from 'node:child_process';
import path from 'node:path';
import { Agent, request } from 'undici';
import { loadRunRuleset } from '../src/catalogue/compiled-ruleset.ts';
import { REPO_ROOT } from '../src/lib/paths.ts';
import { startWorld } from '../test/world/index.ts';

interface Ready {
  url: string;
  ca: string;
  tokens: string[];
}
interface Memory {
  idleRss: number;
  peakRss: number;
}

const VALIDATIONS = 100;
const MB = 1024 * 1024;

async function run(
  env: Record<string, string>,
): Promise<{ memory: Memory; statuses: Map<number | string, number>; ms: number }> {
  const child = fork(path.join(import.meta.dirname, 'bundled.js'), ['bench/validation-server.ts'], {
    // The service collects its start-up garbage before it reads its idle RSS, so the figure is what it holds.
    execArgv: ['--expose-gc'],
    env: { ...process.env, ...env, BENCH_TOKENS: String(VALIDATIONS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`the bench service exited with ${code}`)));
    });
    const agent = new Agent({
      connect: { ca: ready.ca, servername: 'localhost', timeout: 300_000 },
      connections: VALIDATIONS,
    });
    const started = performance.now();
    const answers = await Promise.all(
      ready.tokens.map(async (token): Promise<number | string> => {
        try {
          const res = await request(ready.url, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ domain: 'good.test', payment_token: token }),
            headersTimeout: 0,
            bodyTimeout: 0,
          });
          await res.body.dump();
          return res.statusCode;
        } catch (err) {
          // A connection the service dropped is an answer too (on a machine this busy, a TLS handshake can
          // pass its time limit): counted and shown, not a reason to lose the run's figures.
          return (err as { code?: string }).code ?? (err as Error).message;
        }
      }),
    );
    const ms = performance.now() - started;
    await agent.close();
    const memory = await new Promise<Memory>((resolve) => {
      child.once('message', (m) => resolve(m as Memory));
      child.send('peak');
    });
    const statuses = new Map<number | string, number>();
    for (const s of answers) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    return { memory, statuses, ms };
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * The checked ruleset artifact a service finds from its second start on: the figures are a running service's,
 * not a first start's, which also checks every rule file (dvs rules check does that before a release).
 */
const CACHE_DIR = path.join(REPO_ROOT, '.cache', 'bench');

export default async function bench(): Promise<void> {
  loadRunRuleset(CACHE_DIR);
  const world = await startWorld();
  try {
    console.log(`${VALIDATIONS} Full Validations of good.test sent at once; service in a child process\n`);
    console.log('| bound | answers | wall | idle RSS | peak RSS | per running scan |\n|---|---|---|---|---|---|');
    for (const [name, env] of [
      [`lifted (DVS_MAX_SCANS=${VALIDATIONS})`, { DVS_MAX_SCANS: String(VALIDATIONS) }],
      ['default', {}],
    ] as const) {
      const { memory, statuses, ms } = await run({ ...world.env, DVS_CACHE_DIR: CACHE_DIR, ...env });
      const ok = statuses.get(200) ?? 0;
      const answers = [...statuses].map(([s, n]) => `${n}x ${s}`).join(', ');
      const perScan =
        ok > 0 && 'DVS_MAX_SCANS' in env ? `${((memory.peakRss - memory.idleRss) / MB / ok).toFixed(1)} MB` : 'n/a';
      console.log(
        `| ${name} | ${answers} | ${(ms / 1000).toFixed(1)} s | ${(memory.idleRss / MB).toFixed(0)} MB | ${(memory.peakRss / MB).toFixed(0)} MB | ${perScan} |`,
      );
    }
    console.log('\ngoal: peak RSS < 300 MB with 100 Full Validations running');
  } finally {
    await world.stop();
  }
}
