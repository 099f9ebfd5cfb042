// The fleet in the fixture internet (issue 32 section 5): names listed in the file the env names, each domain
// answered by the world's DNS and HTTPS servers as a copy of its template site, under one wildcard certificate,
// at its group's address only, with the world's round trip; a scan of one judges it as its template is judged.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { createScanner } from '../../src/service/scanner.ts';
import { loadAgentKey } from '../../src/signing/keys.ts';
import { catalogue } from '../suite/ruleset.ts';
import { query, rcodeOf } from './dns-client.ts';
import { fleetAddress, FLEET_TEMPLATES } from './fleet.ts';
import { fetchSite } from './https-client.ts';
import { startWorld, type World } from './index.ts';

const SIZE = 25;
const RTT_MS = 30;
const quiet = { debug() {}, info() {}, warn() {} };

describe('a fleet of 25 domains in the world', () => {
  let world: World;
  let dataDir: string;

  beforeAll(async () => {
    world = await startWorld({ fleet: SIZE, rttMs: RTT_MS });
    dataDir = mkdtempSync(path.join(tmpdir(), 'dvs-fleet-'));
  });

  afterAll(async () => {
    await world.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const answers = async (name: string, type: string) =>
    ((await query(world.dnsPort, name, type))?.answers ?? []).map((a) => (a as { data: unknown }).data);
  const get = (i: number, opts: { path?: string; address?: string } = {}) =>
    fetchSite({
      address: opts.address ?? fleetAddress(i),
      port: world.httpsPort,
      host: `f${i}.fleet.test`,
      path: opts.path,
      ca: world.caPem,
    });

  it('lists its names one a line in the file the env names, and makes each a registrable domain', () => {
    expect(world.env.DVS_FLEET_DOMAINS_FILE).toBe(world.fleet!.domainsFile);
    const names = readFileSync(world.env.DVS_FLEET_DOMAINS_FILE!, 'utf8').trimEnd().split('\n');
    expect(names).toEqual(Array.from({ length: SIZE }, (_, i) => `f${i}.fleet.test`));
    expect(world.env.DVS_EXTRA_SUFFIXES!.split(',')[0]).toBe('fleet.test');
  });

  it("answers each domain's DNS as its template's zone, at the domain's own group address", async () => {
    expect(await answers('f0.fleet.test', 'A')).toEqual([fleetAddress(0)]);
    expect(await answers('f13.fleet.test', 'A')).toEqual([fleetAddress(13)]);
    expect(fleetAddress(13)).not.toBe(fleetAddress(0));
    // good.test has AAAA ::1; its copies have no IPv6 (FLEET_TEMPLATES says why).
    expect(await answers('good.test', 'AAAA')).toEqual(['::1']);
    expect(await answers('f0.fleet.test', 'AAAA')).toEqual([]);
    expect(await answers('f1.fleet.test', 'MX')).toEqual([{ preference: 10, exchange: 'mail.f1.fleet.test' }]);
    // f5 copies dns-no-caa: the CAA records good.test has are missing there.
    expect(FLEET_TEMPLATES[5]).toBe('dns-no-caa');
    expect((await answers('f0.fleet.test', 'CAA')).length).toBeGreaterThan(0);
    expect(await answers('f5.fleet.test', 'CAA')).toEqual([]);
    expect(rcodeOf((await query(world.dnsPort, `f${SIZE}.fleet.test`, 'A'))!)).toBe('NXDOMAIN');
  });

  it('serves each domain over HTTPS with the wildcard certificate and its own name in its documents', async () => {
    const home = await get(0);
    expect(home.status).toBe(200);
    expect(home.peer!.subjectaltname).toBe('DNS:*.fleet.test');
    expect(home.headers['strict-transport-security']).toBeDefined();
    const robots = await get(10, { path: '/robots.txt' });
    expect(robots.body.toString()).toContain('Sitemap: https://f10.fleet.test/sitemap.xml');
    // f1 copies http-no-hsts.
    expect((await get(1)).headers['strict-transport-security']).toBeUndefined();
  });

  it('gives each template its certificate, for the wildcard: a good one, or the bad one the template has', async () => {
    const leaf = new X509Certificate((await get(0)).peer!.raw);
    expect(leaf.checkHost('f0.fleet.test')).toBe('*.fleet.test');
    expect(FLEET_TEMPLATES[3]).toBe('tls-expired');
    await expect(get(3)).rejects.toThrow(/certificate has expired/);
  });

  it('serves a domain only at its own address, like a virtual host', async () => {
    await expect(get(13, { address: fleetAddress(0) })).rejects.toThrow();
  });

  it('makes every answer wait the round trip, as the world does for its sites', async () => {
    const started = performance.now();
    await get(2);
    // A new connection: one round trip for its set-up and one for the request.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * RTT_MS - 5);
  });

  const judge = async () => {
    const agentKey = await loadAgentKey(dataDir);
    const config = loadConfig({ ...world.env, DVS_DATA_DIR: dataDir, DVS_BASE_URL: 'https://dvs.test' });
    const scanner = createScanner({ config, ruleset: catalogue(), providers, log: quiet, agentKey });
    return async (domain: string, mode: 'quick' | 'full') => {
      const { report } = await scanner.scan(domain, mode);
      const failed = report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => r.id);
      return { verdict: report.verdict, failed };
    };
  };

  it('is judged by a Quick Scan as its template is', async () => {
    const judged = await judge();
    expect(await judged('f0.fleet.test', 'quick')).toEqual(await judged('good.test', 'quick'));
    expect(await judged('f1.fleet.test', 'quick')).toEqual(await judged('http-no-hsts.test', 'quick'));
  });

  it('is judged by a Full Validation as its template is, but for the IPv6 and the www it lacks', async () => {
    const judged = await judge();
    const copy = await judged('f0.fleet.test', 'full');
    const template = await judged('good.test', 'full');
    // What a copy lacks (FLEET_TEMPLATES), its AAAA and its www name, only recommended and informational rules
    // judge: the verdict holds.
    expect(template.failed).toEqual([]);
    expect(copy).toEqual({ verdict: template.verdict, failed: ['dns.ipv6.apex_aaaa', 'dns.records.www_resolves'] });
  });
});
