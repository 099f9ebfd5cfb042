// Scan wall time against the critical path, at 0, 50 and 150 ms of round trip. The scan's Net traces every
// DNS query, TCP connection, TLS handshake and HTTP exchange with the one whose result it waited for; the
// critical path is the longest such chain, summed over its operations' own durations. A ratio near 1 means the
// scan is as fast as its dependencies allow; above 1.3 something serialises work that could overlap (a queue,
// a probe awaiting one thing after another), and the printed chain says where to look.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { providers } from '../plugins/index.ts';
import { loadRuleset } from '../src/engine/ruleset.ts';
import { scan } from '../src/engine/scan.ts';
import type { Tier } from '../src/engine/types.ts';
import { loadConfig } from '../src/lib/config.ts';
import { createNet } from '../src/net/index.ts';
import type { TracedOperation } from '../src/net/types.ts';
import { withinNet } from '../src/service/scanner.ts';
import { startWorld, type World } from '../test/world/index.ts';

const RTTS = [0, 50, 150];
const DOMAIN = 'good.test';
const RUNS = 3;
const quiet = { debug() {}, info() {}, warn() {} };

interface Chain {
  ms: number;
  operations: TracedOperation[];
}

/** The longest chain of operations that each waited for the one before, by the sum of their durations. */
export function criticalPath(trace: readonly TracedOperation[]): Chain {
  const longest = new Map<number, Chain>();
  let best: Chain = { ms: 0, operations: [] };
  // An operation waits only for one that ended before it began, so in order of id its predecessor comes first.
  for (const op of [...trace].sort((a, b) => a.id - b.id)) {
    const before = op.waitedFor === null ? undefined : longest.get(op.waitedFor);
    const chain = {
      ms: (before?.ms ?? 0) + (op.endMs - op.startMs),
      operations: [...(before?.operations ?? []), op],
    };
    longest.set(op.id, chain);
    if (chain.ms > best.ms) best = chain;
  }
  return best;
}

interface Run {
  wallMs: number;
  chain: Chain;
  operations: number;
  connections: number;
}

async function scanOnce(world: World, tier: Tier): Promise<Run> {
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-critical-')) });
  const net = createNet(config, { trace: true });
  const ruleset = loadRuleset();
  const before = world.connections();
  const started = performance.now();
  try {
    await scan(DOMAIN, tier, { ruleset, providers: withinNet(net, providers), net, deadlineMs: 120_000, log: quiet });
  } finally {
    await net.close();
  }
  const wallMs = performance.now() - started;
  const trace = net.trace();
  return { wallMs, chain: criticalPath(trace), operations: trace.length, connections: world.connections() - before };
}

/** The median run by wall time (3 runs: the middle one), so one disturbed run does not set the figure. */
async function medianRun(world: World, tier: Tier): Promise<Run> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await scanOnce(world, tier));
  return runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(RUNS / 2)]!;
}

const describeChain = (chain: Chain): string =>
  chain.operations
    .map((op) => `${op.scope ?? '-'} ${op.kind} ${op.target} ${(op.endMs - op.startMs).toFixed(0)}`)
    .join(' → ');

export default async function bench(): Promise<void> {
  const rows: string[] = [];
  const chains: string[] = [];
  for (const rttMs of RTTS) {
    const world = await startWorld({ rttMs });
    try {
      for (const tier of ['quick', 'full'] as const) {
        const run = await medianRun(world, tier);
        const ratio = run.wallMs / Math.max(1, run.chain.ms);
        rows.push(
          `| ${rttMs} ms | ${tier} | ${run.wallMs.toFixed(0)} ms | ${run.chain.ms.toFixed(0)} ms ` +
            `(${run.chain.operations.length} ops) | ${ratio.toFixed(2)}x | ${run.operations} | ${run.connections} |`,
        );
        chains.push(`- ${rttMs} ms ${tier}: ${describeChain(run.chain)}`);
      }
    } finally {
      await world.stop();
    }
  }
  console.log(
    `Scan of ${DOMAIN}, median of ${RUNS}; critical path = the longest chain of operations that each waited for the one before.\n`,
  );
  console.log('| RTT | tier | wall time | critical path | wall / path | operations | TCP connections |');
  console.log('|---|---|---|---|---|---|---|');
  rows.forEach((r) => console.log(r));
  console.log('\nCritical chains (probe, kind, target, ms):');
  chains.forEach((c) => console.log(c));
}
