// Quick Scan derives its probe work from the quick rules' `requires`, so it stays cheap: on the good site of
// the fixture internet it stays within its budget of QUICK_BUDGET connections, while Full Validation does far
// more. The quick tier is chosen to predict the full verdict within that budget (quick-predicts-full.test.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { catalogue } from '../suite/ruleset.ts';
import { planScan, scan } from '../../src/engine/scan.ts';
import { createNet } from '../../src/net/index.ts';
import type { Net } from '../../src/net/types.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';

/** Requests, handshakes and raw connections a Quick Scan may make. */
const QUICK_BUDGET = 10;
const quiet = { debug() {}, info() {}, warn() {} };
const ruleset = catalogue();
let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

/** A Net that counts what a scan asks of the network. */
function counting(net: Net) {
  const counts = { http: 0, tls: 0, tcp: 0, dns: 0 };
  const wrapped: Net = {
    ports: net.ports,
    requestTimeoutMs: net.requestTimeoutMs,
    ca: net.ca,
    resolve: (host, opts) => net.resolve(host, opts),
    dns: (name, type, opts) => (counts.dns++, net.dns(name, type, opts)),
    request: (url, opts) => (counts.http++, net.request(url, opts)),
    tls: (host, opts) => (counts.tls++, net.tls(host, opts)),
    tcp: (host, port, opts) => (counts.tcp++, net.tcp(host, port, opts)),
  };
  return { wrapped, counts };
}

async function cost(tier: 'quick' | 'full') {
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-cost-')) });
  const { wrapped, counts } = counting(createNet(config));
  const { report } = await scan('good.test', tier, {
    ruleset,
    providers,
    net: wrapped,
    deadlineMs: 30_000,
    log: quiet,
  });
  return { counts, report };
}

describe('the quick tier', () => {
  it('runs only the probe facets its rules require', () => {
    const plan = planScan(ruleset, providers, 'quick');
    expect(plan.paths.length).toBeGreaterThan(0);
    expect(plan.paths.every((p) => ruleset.rules.some((r) => r.tier === 'quick' && r.requires.includes(p)))).toBe(true);
    expect(plan.needs('agents.mcp')).toBe(false);
  });

  it(`costs at most ${QUICK_BUDGET} connections on the good site, and far fewer than a full scan`, async () => {
    const quick = await cost('quick');
    const full = await cost('full');
    expect(quick.report.verdict).toBe('CERTIFIED');
    const connections = (c: typeof quick.counts) => c.http + c.tls + c.tcp;
    expect(connections(quick.counts)).toBeLessThanOrEqual(QUICK_BUDGET);
    expect(connections(full.counts)).toBeGreaterThan(4 * connections(quick.counts));
  });
});
