// Issue 35 section 1: what a scan of one fixture site costs this service against the MDN HTTP Observatory, run
// alternating on the same world. Goal: a Quick Scan costs no more wall time and CPU than an Observatory scan, a
// Full Validation at most 2.5 times.
//
// The Observatory (npm's @mdn/mdn-http-observatory 1.4.8) is no dependency of the service: it is installed apart,
// into bench/observatory/ from the lockfile there, at the first run of this bench. Its install scripts, which
// download Chromium's HSTS preload list and IANA's TLD list, are not run (no bench reaches the internet): its
// preload list is written empty, so its first HSTS check reads a small file where it would parse a large one
// (its process figure is that much lower), and the TLD list only its API reads. Its scan() takes no port, so the
// world listens on 443 and 80 here (root or CAP_NET_BIND_SERVICE); it resolves names through node:dns, which
// bench/world-lookup.js points at the world's resolver, and trusts the world's CA through NODE_EXTRA_CA_CERTS.
//
// Figures: the median of 10 alternating rounds after 3 uncounted ones, in one process compiled as dist/ is
// (bench/observatory-compare.ts), the world in this process (its servers' CPU is not the scanners'); then each
// scanner's command as a whole process, alternating. The machine's load average is printed with them: on a shared
// machine only the ratios, taken in the same minutes, carry over.
import { execFile, execFileSync, fork } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startWorld, type World } from '../test/world/index.ts';
import type { WorldCounts } from './observatory-compare.ts';
import { medianCost, type ScanCost } from './scan-cost.ts';
import { processUsage } from './world-process.ts';

const ROOT = path.join(import.meta.dirname, '..');
const PREFIX = path.join(import.meta.dirname, 'observatory');
const OBSERVATORY = path.join(PREFIX, 'node_modules', '@mdn', 'mdn-http-observatory');
const DOMAIN = 'good.test';
const ROUNDS = 10;
const WARM_UP = 3;

function installObservatory(): void {
  if (!existsSync(path.join(OBSERVATORY, 'package.json'))) {
    // pg-native (optional) is its database's native driver, and cookie 2 (Node >= 22, which the project's
    // engine-strict refuses) is loaded by fastify's request injector: its API server's, neither a scan's.
    const args = ['ci', '--ignore-scripts', '--omit=optional', '--engine-strict=false', '--no-audit', '--no-fund'];
    execFileSync('npm', args, { cwd: PREFIX, stdio: 'inherit' });
  }
  const preload = path.join(OBSERVATORY, 'conf', 'hsts-preload.json');
  if (!existsSync(preload)) writeFileSync(preload, '{}\n');
}

async function startWorldOnDefaultPorts(): Promise<World> {
  try {
    return await startWorld({ ports: { https: 443, http: 80 } });
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (code === 'EACCES' || code === 'EADDRINUSE')
      throw new Error(`the comparison needs ports 443 and 80 on loopback (${code}): the Observatory takes no port`, {
        cause: err,
      });
    throw err;
  }
}

const counts = (world: World): WorldCounts => ({
  https: world.connections('https'),
  http: world.connections('http'),
  dns: world.dnsQueries(),
});

/** The in-process comparison, answering the child's requests for the world's counts. */
function compareInProcess(world: World, env: NodeJS.ProcessEnv): Promise<Record<string, ScanCost>> {
  const entry = path.join(OBSERVATORY, 'src', 'index.js');
  const args = ['bench/observatory-compare.ts', DOMAIN, entry, String(ROUNDS), String(WARM_UP)];
  const child = fork(path.join(import.meta.dirname, 'bundled.js'), args, {
    cwd: ROOT,
    env,
    execArgv: ['--import', pathToFileURL(path.join(import.meta.dirname, 'world-lookup.js')).href],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (m: 'counts' | { result: Record<string, ScanCost> }) => {
      if (m === 'counts') child.send(counts(world));
      else resolve(m.result);
    });
    child.once('exit', (code) => reject(new Error(`the comparison exited with ${code} before its figures`)));
  });
}

/** Wall and CPU milliseconds of one command as a whole process, with the world's counts over it. */
async function processCost(world: World, args: string[], env: NodeJS.ProcessEnv): Promise<ScanCost> {
  const before = counts(world);
  const cpu0 = processUsage(process.pid).endedChildrenCpuMs;
  const t0 = performance.now();
  // Not a synchronous spawn: the world answers from this process's event loop.
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, args, { env }, (err) => {
      // `dvs scan` exits 3 for a domain that is not CERTIFIED; anything else is a failed run.
      if (err && err.code !== 3) reject(new Error(`${args.join(' ')}: ${err.message}`));
      else resolve();
    }),
  );
  const wallMs = performance.now() - t0;
  const after = counts(world);
  return {
    wallMs,
    cpuMs: processUsage(process.pid).endedChildrenCpuMs - cpu0,
    https: after.https - before.https,
    http: after.http - before.http,
    dns: after.dns - before.dns,
  };
}

async function compareProcesses(world: World, env: NodeJS.ProcessEnv): Promise<Record<string, ScanCost>> {
  const lookup = pathToFileURL(path.join(import.meta.dirname, 'world-lookup.js')).href;
  // Its CLI's module, without the wrapper its bin runs, which starts it in a second process with Mozilla's CA
  // bundle in NODE_EXTRA_CA_CERTS, which would not hold the world's CA: its figure lacks that process's start.
  const commands: Record<string, string[]> = {
    observatory: ['--import', lookup, path.join(OBSERVATORY, 'src', 'scan.js'), DOMAIN],
    'dvs scan': [path.join(ROOT, 'bin', 'dvs.js'), 'scan', DOMAIN],
  };
  const names = Object.keys(commands);
  const runs = new Map<string, ScanCost[]>(names.map((n) => [n, []]));
  for (let round = 0; round < 1 + ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const cost = await processCost(world, commands[name]!, env);
      // The first round builds the ruleset's artifact in the data directory, as a service's first start does.
      if (round > 0) runs.get(name)!.push(cost);
    }
  }
  return Object.fromEntries([...runs].map(([name, list]) => [name, medianCost(list)]));
}

const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function printTable(title: string, costs: Record<string, ScanCost>, base: string): void {
  const names = Object.keys(costs);
  const ratio = (name: string, key: 'wallMs' | 'cpuMs') =>
    name === base ? '' : ` (${(costs[name]![key] / costs[base]![key]).toFixed(2)}x)`;
  console.log(`\n${title}\n`);
  console.log(`| per scan (median of ${ROUNDS}) | ${names.join(' | ')} |`);
  console.log(`|---|${names.map(() => '---|').join('')}`);
  const row = (label: string, cell: (n: string) => string) =>
    console.log(`| ${label} | ${names.map(cell).join(' | ')} |`);
  row('wall time', (n) => `${costs[n]!.wallMs.toFixed(1)} ms${ratio(n, 'wallMs')}`);
  row('CPU time', (n) => `${costs[n]!.cpuMs.toFixed(1)} ms${ratio(n, 'cpuMs')}`);
  row('TCP connections (HTTPS/HTTP)', (n) => `${costs[n]!.https} / ${costs[n]!.http}`);
  row('DNS queries', (n) => String(costs[n]!.dns));
}

export default async function bench(): Promise<void> {
  installObservatory();
  // `dvs scan` runs dist/: compiled from this tree's sources first, as `npm ci` compiles it.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], { stdio: 'inherit' });
  const world = await startWorldOnDefaultPorts();
  const env = {
    ...process.env,
    ...world.env,
    NODE_EXTRA_CA_CERTS: world.env.DVS_EXTRA_CA,
    DVS_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'dvs-observatory-')),
    DVS_LOG_LEVEL: 'silent',
  };
  try {
    console.log(`load average before: ${load()} (${os.cpus().length} cores)`);
    const inProcess = await compareInProcess(world, env);
    printTable(
      `${DOMAIN}, one process, alternating (the world's servers in another):`,
      {
        'Observatory 1.4.8': inProcess.observatory!,
        'Quick Scan': inProcess.quick!,
        'Full Validation': inProcess.full!,
      },
      'Observatory 1.4.8',
    );
    const processes = await compareProcesses(world, env);
    printTable(
      `${DOMAIN}, each command as a whole process, alternating:`,
      { 'Observatory CLI (its scan.js)': processes.observatory!, '`dvs scan`': processes['dvs scan']! },
      'Observatory CLI (its scan.js)',
    );
    console.log(`\nload average after: ${load()}`);
  } finally {
    await world.stop();
  }
}
