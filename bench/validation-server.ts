// The service alone, for the memory bench: the fixture internet runs in the parent, so this process's resident
// memory is the service's. Issues the test tokens the parent spends, samples its own RSS, and reports the peak
// when asked; serves until killed.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/lib/config.ts';
import { createLogger } from '../src/lib/log.ts';
import { boundHeapGrowth } from '../src/server/heap-growth.ts';
import { startService } from '../src/server/index.ts';
import { MemoryGate } from '../test/server/memory-gate.ts';

// As `dvs serve` sets its process up.
boundHeapGrowth();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-bench-memory-'));
const config = loadConfig({
  ...process.env,
  DVS_PORT: '0',
  DVS_HOST: '127.0.0.1',
  DVS_DATA_DIR: dataDir,
  DVS_LOG_LEVEL: 'silent',
});
const gate = new MemoryGate();

void startService(config, {
  log: createLogger(config),
  payments: { gate, certificates: gate, close: async () => {} },
}).then((service) => {
  const tokens = Array.from({ length: Number(process.env.BENCH_TOKENS ?? 100) }, () => gate.issue());
  (globalThis as { gc?: () => void }).gc?.();
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20).unref();

  process.on('message', () => process.send!({ idleRss, peakRss }));
  process.send!({
    url: `https://127.0.0.1:${service.port}/api/fullvalidation`,
    ca: readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8'),
    tokens,
  });
  process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
});
