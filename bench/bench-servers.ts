// bench/service-server.ts in a process of its own (so the load generator does not share its event loop), run
// from its bundle as `dvs serve` runs, and the URLs it says it serves once it is ready.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** What the servers' process sends when it is ready. */
export interface BenchServers {
  /** POST /api/quickscan on the service. */
  quickUrl: string;
  healthUrl: string;
  /** The fixture internet's domains and aliases. */
  domains: string[];
  /** The bare Koa route answering {"ok":true}. */
  bareUrl: string;
  /** The bare Koa route answering the bytes of the service's Quick Scan of good.test. */
  sameBytesUrl: string;
  /** The bare Koa route answering the service's br Quick Scan answer: its headers and coded bytes. */
  sameAnswerUrl: string;
  /** The certificate every server presents, to trust. */
  ca: string;
}

/** Starts the servers; the caller kills the child when done. */
export async function forkBenchServers(): Promise<{ child: ChildProcess; servers: BenchServers }> {
  const child = fork(path.join(import.meta.dirname, 'bundled.js'), ['bench/service-server.ts'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const servers = await new Promise<BenchServers>((resolve, reject) => {
      child.once('message', (m) => resolve(m as BenchServers));
      child.once('exit', (code) => reject(new Error(`the bench servers exited with ${code}`)));
    });
    return { child, servers };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}
