// A scan of the fixture internet asks the resolver each name and type once, the pre-scan check included: the
// world's zones are served by a counting resolver here, and every question the scan sends is tallied.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { createScanner, type Scanner } from '../../src/service/scanner.ts';
import { catalogue } from '../suite/ruleset.ts';
import { startDnsServer, zoneResponder, type DnsServer } from '../world/dns-server.ts';
import { DEFAULT_SITES_DIR, startWorld, type World } from '../world/index.ts';
import { loadSites } from '../world/site-config.ts';
import { Zones } from '../world/zones.ts';

const quiet = { debug() {}, info() {}, warn() {} };
let world: World;
let resolver: DnsServer;
let dataDir: string;
let scanner: Scanner;
const asked: string[] = [];
const sent = new Set<string>();

beforeAll(async () => {
  // Only good.test is scanned; the resolver below still holds every site's zone.
  world = await startWorld({ sites: ['good'] });
  const respond = zoneResponder(new Zones(loadSites(DEFAULT_SITES_DIR)));
  resolver = await startDnsServer((query, transport) => {
    const q = query.questions?.[0];
    // A retransmission over UDP (same id) is the same query, so questions are tallied per id.
    const question = q && `${q.name.toLowerCase()} ${q.type}`;
    if (question && !sent.has(`${query.id} ${question}`)) asked.push(question);
    sent.add(`${query.id} ${question}`);
    return respond(query, transport);
  });
  dataDir = mkdtempSync(path.join(tmpdir(), 'dvs-dns-per-scan-'));
  const config = loadConfig({ ...world.env, DVS_DNS_SERVERS: `127.0.0.1:${resolver.port}`, DVS_DATA_DIR: dataDir });
  scanner = createScanner({ config, ruleset: catalogue(), providers, log: quiet, agentKey: null });
}, 60_000);
afterAll(async () => {
  await resolver?.close();
  await world?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const repeated = (questions: string[]): string[] => questions.filter((q, i) => questions.indexOf(q) !== i);

it.each(['quick', 'full'] as const)(
  'a %s scan asks each name and type once, its pre-scan check included',
  async (tier) => {
    asked.length = 0;
    const preflight = await scanner.preflight('good.test', tier);
    expect(preflight.ok).toBe(true);
    const { report } = await scanner.scan('good.test', tier, { preflight });
    expect(report.verdict).toBe('CERTIFIED');
    expect(asked).toContain('good.test A');
    expect(asked).toContain('good.test DNSKEY');
    expect(repeated(asked)).toEqual([]);
  },
);
