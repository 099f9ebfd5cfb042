// `dvs serve` (and `npm start`): the whole service on HTTPS until SIGINT or SIGTERM, then a graceful stop.
import { createLogger } from '../lib/log.ts';
import { openPayments } from '../payments/index.ts';
import { boundHeapGrowth } from '../server/heap-growth.ts';
import { startService } from '../server/index.ts';
import type { CliIo } from './io.ts';

export async function run(_args: string[], io: CliIo): Promise<number> {
  boundHeapGrowth();
  const log = createLogger(io.config);
  const service = await startService(io.config, { log, payments: await openPayments(io.config, log) });
  io.stdout.write(`Domain Validation Service on ${service.url} (public base URL ${io.config.baseUrl})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void service.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
