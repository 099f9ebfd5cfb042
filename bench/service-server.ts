// The servers the service bench loads, in a process of their own so the load generator does not share their
// event loop: the service (fixture internet's good site warm in its cache) and a bare Koa route on HTTPS with
// the same certificate. Tells the parent their URLs and the certificate, then serves until killed.
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import { loadConfig } from '../src/lib/config.ts';
import { createLogger } from '../src/lib/log.ts';
import { startService } from '../src/server/index.ts';
import { MemoryGate } from '../test/server/memory-gate.ts';
import { startWorld } from '../test/world/index.ts';

const world = await startWorld();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-bench-'));
const config = loadConfig({
  ...world.env,
  DVS_PORT: '0',
  DVS_HOST: '127.0.0.1',
  DVS_DATA_DIR: dataDir,
  DVS_LOG_LEVEL: 'silent',
  DVS_QUICK_RATE_LIMIT: '100000',
});
const gate = new MemoryGate();
const service = await startService(config, {
  log: createLogger(config),
  payments: { gate, certificates: gate, close: async () => {} },
});
const cert = readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8');
const key = readFileSync(path.join(dataDir, 'tls', 'localhost-key.pem'), 'utf8');

const bare = new Koa();
const router = new Router();
router.post('/bare', (ctx) => {
  ctx.body = { ok: true };
});
bare.use(router.routes());
const handle = bare.callback();
// Koa answers every error itself (ctx.onerror), so the listener lets its promise go.
const bareServer = https.createServer({ cert, key, minVersion: 'TLSv1.2' }, (req, res) => void handle(req, res));
await new Promise<void>((resolve) => bareServer.listen(0, '127.0.0.1', () => resolve()));

process.send!({
  quickUrl: `https://127.0.0.1:${service.port}/api/quickscan`,
  healthUrl: `https://127.0.0.1:${service.port}/healthz`,
  domains: world.sites.flatMap((s) => [s.domain, ...s.aliases]),
  bareUrl: `https://127.0.0.1:${(bareServer.address() as AddressInfo).port}/bare`,
  ca: cert,
});
process.on('SIGTERM', () => {
  void Promise.all([service.close(), world.stop(), new Promise((r) => bareServer.close(r))]).then(() =>
    process.exit(0),
  );
});
