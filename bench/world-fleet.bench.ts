// Issue 32 section 5: the memory of one world process serving a fleet (`npm run world -- --fleet N`). The world
// runs as `npm run world` runs it, in a process of its own; every fleet domain is then asked what a Quick Scan
// asks first (A, AAAA, CAA, MX and TXT over DNS, the home page and robots.txt over HTTPS), 64 domains at a time,
// and the world's resident memory is read from /proc before and after, with its peak.
//
// `npm run bench -- world-fleet [--fleet 10000]` (goal: < 500 MB for 10,000 domains)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { query } from '../test/world/dns-client.ts';
import { fleetAddress } from '../test/world/fleet.ts';
import { fetchSite } from '../test/world/https-client.ts';

const CONCURRENCY = 64;

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export default async function bench(args: readonly string[] = []): Promise<void> {
  const at = args.indexOf('--fleet');
  const size = at >= 0 ? Number(args[at + 1]) : 10_000;
  if (!Number.isInteger(size) || size < 1) throw new Error('--fleet must be a positive whole number');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-world-fleet-'));
  const envFile = path.join(dir, 'world.env');
  const cli = path.join(import.meta.dirname, '../test/world/cli.ts');
  const started = performance.now();
  // Node 20 takes an --env-file anywhere on its command line for itself, unless a `--` comes first.
  const world = spawn(
    process.execPath,
    ['--import', 'tsx', cli, '--', '--env-file', envFile, '--fleet', String(size)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    while (!existsSync(envFile)) {
      if (world.exitCode !== null) throw new Error(`the world exited (${world.exitCode})`);
      await sleep(50);
    }
    const ready = performance.now() - started;
    const env = Object.fromEntries(
      readFileSync(envFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.replace(/^export /, '').split('=', 2) as [string, string]),
    );
    const dnsPort = Number(env.DVS_DNS_SERVERS!.split(':')[1]);
    const httpsPort = Number(env.DVS_PROBE_HTTPS_PORT);
    const ca = readFileSync(env.DVS_EXTRA_CA!, 'utf8');
    const idle = memoryOf(world.pid!);

    let next = 0;
    let failed = 0;
    const servedStart = performance.now();
    const worker = async () => {
      for (let i = next++; i < size; i = next++) {
        const host = `f${i}.fleet.test`;
        for (const type of ['A', 'AAAA', 'CAA', 'MX', 'TXT']) await query(dnsPort, host, type);
        for (const pathname of ['/', '/robots.txt']) {
          // Templates with a bad certificate refuse the handshake: that is their behaviour, and counted.
          await fetchSite({ address: fleetAddress(i), port: httpsPort, host, path: pathname, ca }).catch(
            () => failed++,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const served = (performance.now() - servedStart) / 1000;
    const after = memoryOf(world.pid!);

    console.log('| figure | value |\n|---|---|');
    console.log(`| fleet domains | ${size.toLocaleString('en')} |`);
    console.log(`| world ready (process start to env file) | ${(ready / 1000).toFixed(1)} s |`);
    console.log(`| world RSS once ready | ${mb(idle.rss)} |`);
    console.log(
      `| every domain asked 5 DNS questions and 2 HTTPS pages (${CONCURRENCY} domains at a time) | ${served.toFixed(0)} s (${((size * 7) / served).toFixed(0)} answers/s); ${failed} pages refused by their template's bad certificate |`,
    );
    console.log(`| world RSS after (goal < 500 MB) | ${mb(after.rss)} |`);
    console.log(`| world peak RSS (VmHWM) | ${mb(after.peak)} |`);
  } finally {
    if (world.exitCode === null) {
      const exited = new Promise((resolve) => world.once('exit', resolve));
      world.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
