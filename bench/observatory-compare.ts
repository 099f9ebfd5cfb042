// The in-process half of bench/observatory.bench.ts, run compiled as dist/ is (bench/bundled.js) in a process of
// its own: the MDN HTTP Observatory's scan() and this service's Quick Scan and Full Validation of one fixture
// site, alternating, each timed on this process's clock and CPU while the world (in the parent process) counts the
// connections its sites accept and the DNS queries its resolver answers. The parent's world listens on 443 and
// 80, because the Observatory's scan() connects to the default ports only.
import http from 'node:http';
import https from 'node:https';
import { pathToFileURL } from 'node:url';
import { providers } from '../plugins/index.ts';
import { loadRunRuleset } from '../src/catalogue/compiled-ruleset.ts';
import { loadConfig } from '../src/lib/config.ts';
import { lazyLogger } from '../src/lib/log.ts';
import { createScanner } from '../src/service/scanner.ts';
import { medianCost, type ScanCost } from './scan-cost.ts';

/** What the parent's world has counted since it started. */
export interface WorldCounts {
  https: number;
  http: number;
  dns: number;
}

type Observatory = (host: string) => Promise<{ scan: { grade: string } }>;

const asked: ((c: WorldCounts) => void)[] = [];
process.on('message', (c: WorldCounts) => asked.shift()?.(c));
const worldCounts = (): Promise<WorldCounts> =>
  new Promise((resolve) => {
    asked.push(resolve);
    process.send!('counts');
  });

async function measure(run: () => Promise<unknown>): Promise<ScanCost> {
  const before = await worldCounts();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const after = await worldCounts();
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    https: after.https - before.https,
    http: after.http - before.http,
    dns: after.dns - before.dns,
  };
}

function scanners(domain: string, observatory: Observatory): Record<string, () => Promise<unknown>> {
  const config = loadConfig();
  const ruleset = loadRunRuleset(config.cacheDir);
  const log = lazyLogger({ logLevel: 'silent' });
  const scanner = createScanner({ config, ruleset, providers, log, agentKey: null });
  // As `dvs scan` does: the pre-scan check, then the scan on its network.
  const ours = (tier: 'quick' | 'full') => async () => {
    const preflight = await scanner.preflight(domain, tier);
    if (!preflight.ok) throw new Error(preflight.text);
    await scanner.scan(domain, tier, { preflight });
  };
  return {
    observatory: async () => {
      await observatory(domain);
      // Its second client uses Node's global agents, which keep connections alive for the next scan: each scan
      // here starts without them, as each of ours does.
      https.globalAgent.destroy();
      http.globalAgent.destroy();
    },
    quick: ours('quick'),
    full: ours('full'),
  };
}

/** `rounds` rounds after `warmUp` uncounted ones, the order of the scanners rotating each round. */
async function compare(
  domain: string,
  observatoryEntry: string,
  rounds: number,
  warmUp: number,
): Promise<Record<string, ScanCost>> {
  const { scan } = (await import(pathToFileURL(observatoryEntry).href)) as { scan: Observatory };
  const runs = scanners(domain, scan);
  const names = Object.keys(runs);
  const costs = new Map<string, ScanCost[]>(names.map((n) => [n, []]));
  for (let round = 0; round < warmUp + rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const cost = await measure(runs[name]!);
      if (round >= warmUp) costs.get(name)!.push(cost);
    }
  }
  return Object.fromEntries([...costs].map(([name, list]) => [name, medianCost(list)]));
}

// After bench/bundled.js and the path of this module it was given.
const [domain, entry, rounds, warmUp] = process.argv.slice(3);
const result = await compare(domain!, entry!, Number(rounds), Number(warmUp));
process.send!({ result });
process.disconnect();
