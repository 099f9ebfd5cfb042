// The fixture internet as `npm run world` runs it, in a process of its own, so the benches that need it (with
// a fleet) measure the world apart from what they measure, and read its memory and CPU from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface WorldProcess {
  env: Record<string, string>;
  pid: number;
  /** Milliseconds from the process's start to its env file. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Stops a child process we started, waiting for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function startWorldProcess(opts: { fleet: number; rttMs?: number }): Promise<WorldProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-world-process-'));
  const envFile = path.join(dir, 'world.env');
  const cli = path.join(import.meta.dirname, '../test/world/cli.ts');
  const started = performance.now();
  // Node 20 takes an --env-file anywhere on its command line for itself, unless a `--` comes first.
  const args = ['--', '--env-file', envFile, '--fleet', String(opts.fleet), '--rtt', String(opts.rttMs ?? 0)];
  const world = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A bench that dies leaves no world behind.
  process.once('exit', () => world.kill());
  const stop = async () => {
    await stopChild(world);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    while (!existsSync(envFile)) {
      if (world.exitCode !== null) throw new Error(`the world exited (${world.exitCode})`);
      await sleep(50);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const env = Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.replace(/^export /, '').split('=', 2) as [string, string]),
  );
  return { env, pid: world.pid!, readyMs: performance.now() - started, stop };
}

/**
 * A process's resident memory now and at its peak, the CPU it has used (user + system), the CPU of its children
 * that have ended and been waited for, and its parent, from /proc.
 */
export function processUsage(pid: number): {
  rss: number;
  peak: number;
  cpuMs: number;
  endedChildrenCpuMs: number;
  ppid: number;
} {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  // Fields 4 and 14 to 17 of /proc/<pid>/stat, after the command name in parentheses; times in clock ticks
  // (100 a second).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    rss: kib('VmRSS'),
    peak: kib('VmHWM'),
    cpuMs: (fields[11]! + fields[12]!) * 10,
    endedChildrenCpuMs: (fields[13]! + fields[14]!) * 10,
    ppid: fields[1]!,
  };
}
