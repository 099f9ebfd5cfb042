// `npm run world [-- --sites <dir>] [-- --rtt <ms>] [-- --fleet <N>] [-- -- --env-file <path>]`: runs the fixture
// internet until SIGINT/SIGTERM and prints the DVS_* settings that point the service at it (also written to the env
// file, default .env.world). With --fleet, DVS_FLEET_DOMAINS_FILE names the file listing the fleet's domains.
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startWorld } from './index.ts';

// tsx hands `--env-file` to node itself unless it comes after a `--`, so leading `--` separators are skipped.
const args = process.argv.slice(2);
while (args[0] === '--') args.shift();
const { values } = parseArgs({
  args,
  options: {
    sites: { type: 'string' },
    rtt: { type: 'string', default: '0' },
    fleet: { type: 'string', default: '0' },
    'env-file': { type: 'string', default: '.env.world' },
  },
});

const rttMs = Number(values.rtt);
if (!Number.isInteger(rttMs) || rttMs < 0) throw new Error(`--rtt ${values.rtt}: a round trip in whole milliseconds`);
const fleet = Number(values.fleet);
if (!Number.isInteger(fleet) || fleet < 0) throw new Error(`--fleet ${values.fleet}: a number of domains`);
const world = await startWorld({ ...(values.sites ? { sitesDir: path.resolve(values.sites) } : {}), rttMs, fleet });
const lines = Object.entries(world.env).map(([k, v]) => `export ${k}=${v}`);
// Written aside and renamed into place, so a process waiting for the file never reads half of it.
await writeFile(`${values['env-file']}.partial`, lines.join('\n') + '\n');
await rename(`${values['env-file']}.partial`, values['env-file']);
process.stdout.write(lines.join('\n') + '\n');
process.stderr.write(
  `world: ${world.sites.length} sites${world.fleet ? ` and ${world.fleet.size} fleet domains` : ''}, DNS 127.0.0.1:${world.dnsPort}, HTTPS port ${world.httpsPort}, HTTP port ${world.httpPort}; ` +
    `settings in ${values['env-file']}; Ctrl-C stops it\n`,
);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  world.stop().then(
    () => {
      process.stderr.write(`world: stopped on ${signal}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`world: stop failed: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
