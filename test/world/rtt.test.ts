// A world with latency: `rttMs` holds every connection set-up and every response of every site for one round
// trip, and a site's `rtt_ms` replaces it for that site. Only lower bounds are asserted: a busy machine adds
// time, never removes it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { createNet } from '../../src/net/index.ts';
import { startWorld, type World } from './index.ts';

const RTT_MS = 100;
const OWN_RTT_MS = 300;
let world: World;
let sitesDir: string;

beforeAll(async () => {
  sitesDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-rtt-sites-'));
  const site = (name: string, extra = '') => {
    mkdirSync(path.join(sitesDir, name, 'files'), { recursive: true });
    writeFileSync(path.join(sitesDir, name, 'site.yaml'), `domain: ${name}.test\nhttps: {}\n${extra}`);
    writeFileSync(path.join(sitesDir, name, 'files', 'index.html'), '<!doctype html><title>t</title>\n');
  };
  site('near');
  site('far', `rtt_ms: ${OWN_RTT_MS}\n`);
  world = await startWorld({ sitesDir, rttMs: RTT_MS });
});
afterAll(async () => {
  await world?.stop();
  rmSync(sitesDir, { recursive: true, force: true });
});

async function fetchMs(site: string): Promise<number> {
  const net = createNet(loadConfig(world.env));
  const started = performance.now();
  const ex = await net.request(world.url(site));
  expect(ex.status).toBe(200);
  return performance.now() - started;
}

describe('a world with latency', () => {
  it('costs a round trip to set up a connection and another to answer', async () => {
    expect(await fetchMs('near')).toBeGreaterThanOrEqual(2 * RTT_MS);
  });

  it("takes a site's own rtt_ms instead of the world's", async () => {
    expect(await fetchMs('far')).toBeGreaterThanOrEqual(2 * OWN_RTT_MS);
  });
});
