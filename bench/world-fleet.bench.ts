// Issue 32 section 5: the memory of one world process serving a fleet (`npm run world -- --fleet N`). The world
// runs as `npm run world` runs it, in a process of its own; every fleet domain is then asked what a Quick Scan
// asks first (A, AAAA, CAA, MX and TXT over DNS, the home page and robots.txt over HTTPS), 64 domains at a time,
// and the world's resident memory is read from /proc before and after, with its peak.
//
// `npm run bench -- world-fleet [--fleet 10000]` (goal: < 500 MB for 10,000 domains)
import { readFileSync } from 'node:fs';
import { query } from '../test/world/dns-client.ts';
import { fleetAddress } from '../test/world/fleet.ts';
import { fetchSite } from '../test/world/https-client.ts';
import { processUsage, startWorldProcess } from './world-process.ts';

const CONCURRENCY = 64;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export default async function bench(args: readonly string[] = []): Promise<void> {
  const at = args.indexOf('--fleet');
  const size = at >= 0 ? Number(args[at + 1]) : 10_000;
  if (!Number.isInteger(size) || size < 1) throw new Error('--fleet must be a positive whole number');
  const world = await startWorldProcess({ fleet: size });
  try {
    const { env } = world;
    const dnsPort = Number(env.DVS_DNS_SERVERS!.split(':')[1]);
    const httpsPort = Number(env.DVS_PROBE_HTTPS_PORT);
    const ca = readFileSync(env.DVS_EXTRA_CA!, 'utf8');
    const idle = processUsage(world.pid);

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
    const after = processUsage(world.pid);

    console.log('| figure | value |\n|---|---|');
    console.log(`| fleet domains | ${size.toLocaleString('en')} |`);
    console.log(`| world ready (process start to env file) | ${(world.readyMs / 1000).toFixed(1)} s |`);
    console.log(`| world RSS once ready | ${mb(idle.rss)} |`);
    console.log(
      `| every domain asked 5 DNS questions and 2 HTTPS pages (${CONCURRENCY} domains at a time) | ${served.toFixed(0)} s (${((size * 7) / served).toFixed(0)} answers/s); ${failed} pages refused by their template's bad certificate |`,
    );
    console.log(`| world RSS after (goal < 500 MB) | ${mb(after.rss)} |`);
    console.log(`| world peak RSS (VmHWM) | ${mb(after.peak)} |`);
  } finally {
    await world.stop();
  }
}
