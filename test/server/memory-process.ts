// Starts test/server/service-process.ts, the service in a child process of its own, so a test can measure the
// resident memory an attack costs it: the idle figure after a collection, the peak while the attack runs.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import type { Question, Sample } from './service-process.ts';

export const MiB = 1024 * 1024;

export interface ServiceProcess {
  port: number;
  caPem: string;
  /** Collects garbage and starts a new peak: the service's idle RSS. */
  idle(): Promise<Sample>;
  sample(): Promise<Sample>;
  stop(): Promise<void>;
}

function ask(child: ChildProcess, question: Question): Promise<Sample> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Sample));
    child.send(question);
  });
}

export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = fork(path.join(import.meta.dirname, 'service-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, DVS_CACHE_DIR: SUITE_CACHE_DIR, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number; caPem: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; caPem: string }));
    child.once('exit', (code) => reject(new Error(`the service process exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...ready,
    idle: () => ask(child, 'idle'),
    sample: () => ask(child, 'sample'),
    async stop() {
      child.disconnect();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
