// The service alone in a child process, for the tests that measure its resident memory (test/server/
// memory-process.ts starts it): the attacker and any fixture run in the parent, so this process's RSS is the
// service's. It samples its RSS every 10 ms and answers the parent's questions over IPC.
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/lib/config.ts';
import { createLogger } from '../../src/lib/log.ts';
import { boundHeapGrowth } from '../../src/server/heap-growth.ts';
import { startService } from '../../src/server/index.ts';
import { MemoryGate } from './memory-gate.ts';

export type Question = 'idle' | 'sample';
export interface Sample {
  rss: number;
  /** The highest RSS seen since the last `idle`. */
  peak: number;
  /** Open TCP sockets of the process (its listener included). */
  sockets: number;
  /** CPU time the process has used, user and system (µs). */
  cpuMicros: number;
}

/** Sockets among the process's file descriptors: what the kernel still holds open for it. */
function openSockets(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // The descriptor readdir itself used is gone by now.
    }
  }
  return count;
}

// As `dvs serve` sets its process up.
boundHeapGrowth();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-memory-'));
const config = loadConfig({
  ...process.env,
  DVS_PORT: '0',
  DVS_HOST: '127.0.0.1',
  DVS_DATA_DIR: dataDir,
  DVS_LOG_LEVEL: 'silent',
});
const gate = new MemoryGate();
const service = await startService(config, {
  log: createLogger(config),
  payments: { gate, certificates: gate, close: async () => {} },
});

const gc = (globalThis as { gc?: () => void }).gc!;
let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10).unref();

process.on('message', (question: Question) => {
  if (question === 'idle') {
    gc();
    peak = process.memoryUsage.rss();
  }
  const rss = process.memoryUsage.rss();
  const cpu = process.cpuUsage();
  process.send!({
    rss,
    peak: Math.max(peak, rss),
    sockets: openSockets(),
    cpuMicros: cpu.user + cpu.system,
  } satisfies Sample);
});
process.on(
  'disconnect',
  () =>
    void service.close().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }),
);
process.send!({
  port: service.port,
  caPem: readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8'),
});
