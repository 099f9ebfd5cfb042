// Quick Scan derives its probe work from the quick rules' `requires`, so it stays cheap: on the good site of
// the fixture internet it opens at most QUICK_BUDGET TCP connections (counted by the sites' listeners, so a kept
// connection serving several requests counts once), while Full Validation opens far more. The quick tier is
// chosen to predict the full verdict within that budget (quick-predicts-full.test.ts).
import { QUICK_CONCURRENCY } from '../../src/service/scanner.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { catalogue } from '../suite/ruleset.ts';
import { planScan, scan } from '../../src/engine/observe-and-judge.ts';
import { createNet } from '../../src/net/index.ts';
import type { Net } from '../../src/net/types.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';
import { expectEvery } from '../helpers/every.ts';

/** TCP connections a Quick Scan may open (HTTP connections are kept and reused, each handshake is one). */
const QUICK_BUDGET = 12;
const quiet = { debug() {}, info() {}, warn() {} };
const ruleset = catalogue();
let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

/** What a scan of good.test costs: the TCP connections the world's sites accepted, and the requests made. */
async function cost(tier: 'quick' | 'full') {
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-cost-')) });
  // Sized as the scanner sizes a Quick Scan's network.
  const net = createNet(config, tier === 'quick' ? { concurrency: QUICK_CONCURRENCY } : {});
  let requests = 0;
  const counted: Net = { ...net, request: (url, opts) => (requests++, net.request(url, opts)) };
  const before = world.connections();
  const httpsBefore = world.connections('https');
  try {
    const { report } = await scan('good.test', tier, {
      ruleset,
      providers,
      net: counted,
      deadlineMs: 30_000,
      log: quiet,
    });
    return {
      report,
      requests,
      connections: world.connections() - before,
      https: world.connections('https') - httpsBefore,
    };
  } finally {
    await net.close();
  }
}

describe('the quick tier', () => {
  it('runs only the probe facets its rules require', () => {
    const plan = planScan(ruleset, providers, 'quick');
    expectEvery(
      plan.paths,
      (p) => ruleset.rules.some((r) => r.tier === 'quick' && r.requires.includes(p)),
      'every planned path is required by a quick rule',
    );
    expect(plan.needs('agents.commerce')).toBe(false);
    expect(plan.needs('tls.versions.tls1_2')).toBe(false);
  });

  it(`costs at most ${QUICK_BUDGET} connections on the good site, and far fewer than a full scan`, async () => {
    const quick = await cost('quick');
    const full = await cost('full');
    expect(quick.report.verdict).toBe('CERTIFIED');
    expect(quick.connections).toBeLessThanOrEqual(QUICK_BUDGET);
    // Connections are reused: a scan makes more requests than it opens connections.
    expect(quick.requests).toBeGreaterThan(2 * quick.connections);
    expect(full.connections).toBeGreaterThan(3 * quick.connections);
  });

  it("opens one HTTPS connection per address, shared by every probe, and the legacy versions' handshakes", async () => {
    const quick = await cost('quick');
    // good.test has an IPv4 and an IPv6 address: one connection to each carries the requests, the reachability
    // probe's handshake facts and the TLS probe's negotiated and certificate facts. TLS 1.0 and 1.1 are offered
    // each on its own, since only a handshake offering nothing else shows a server refusing it.
    expect(quick.https).toBe(4);
    expect(quick.connections - quick.https).toBe(1);
  });
});
