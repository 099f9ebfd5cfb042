// Full scans against hostile servers: servers that hang, trickle, flood, bomb, redirect into private space or
// rebind their DNS. Every scan must come back with a report (facts or timeouts, never a pass on absent
// evidence) inside its deadline, the process must stay small, every connection the scan opened must be
// closed, and the forbidden server - a loopback address outside the allowed networks - must see nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { catalogue } from '../suite/ruleset.ts';
import { ScanDeadlineError, type ScanOutcome } from '../../src/engine/observe-and-judge.ts';
import type { Logger } from '../../src/lib/log.ts';
import { createNet, NetError } from '../../src/net/index.ts';
import { createScanner, type Scanner } from '../../src/service/scanner.ts';
import { startWorld, type World } from '../world/index.ts';
import {
  endlessHeaders,
  floodBody,
  gzipBomb,
  gzipBombMember,
  plain,
  redirect,
  silent,
  startForbiddenServer,
  startHostileSite,
  trickleBody,
  trickleHeaders,
  type Behaviour,
  type HostileServer,
  type HttpsMode,
  type ServerStats,
} from './hostile-servers.ts';
import { startRebindingDns, type RebindingDns } from './rebinding-dns.ts';

const SITES_DIR = path.join(import.meta.dirname, 'sites');
/** A loopback address outside DVS_ALLOW_NETWORKS below: the scanner must treat it as private. */
const FORBIDDEN = '127.66.0.1';
const REQUEST_TIMEOUT_MS = 1500;
const FULL_DEADLINE_MS = 20_000;
const MAX_BODY_BYTES = 1024 * 1024;
const MiB = 1024 * 1024;
const RSS_GROWTH_BOUND = 300 * MiB;
/** Each flood response offers this much; the scanner must read about MAX_BODY_BYTES of it. */
const FLOOD_BYTES = 300 * MiB;
/** 64 MiB of newlines per gzip member (about 64 KiB on the wire), 128 members: 8 GiB decoded per response. */
const BOMB_MEMBER_BYTES = 64 * MiB;
const BOMB_MEMBERS = 128;

const HOSTILE = [
  'silent-tcp.test',
  'silent-tls.test',
  'tls-stall.test',
  'trickle-headers.test',
  'trickle-body.test',
  'endless-headers.test',
  'flood-body.test',
  'gzip-bomb.test',
  'redirect-loop.test',
  'redirect-private.test',
  'redirect-forbidden.test',
  'split-a.test',
] as const;
type HostileDomain = (typeof HOSTILE)[number];
/** Refused by the preflight, and scanned anyway to prove the scan itself connects to nothing. */
const NOT_PUBLIC = ['forbidden.test', 'private-a.test'] as const;

const log: Logger = { debug() {}, info() {}, warn() {} };
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

/** Every spelling of the forbidden address a Location header can carry, plus its DNS name. */
function forbiddenSpellings(ports: { http: number; https: number }): string[] {
  const p = ports.http;
  const asInteger = ((127 << 24) >>> 0) + (66 << 16) + 1;
  const fullwidth = encodeURIComponent('１２７.６６.０.１').replaceAll('%2E', '.');
  return [
    `http://127.66.0.1:${p}/`,
    `http://[::ffff:127.66.0.1]:${p}/`,
    `http://[::ffff:7f42:1]:${p}/`,
    `http://[0:0:0:0:0:ffff:7f42:0001]:${p}/`,
    `http://[::127.66.0.1]:${p}/`,
    `http://${asInteger}:${p}/`,
    `http://0x7f420001:${p}/`,
    `http://0x7f.0x42.0.1:${p}/`,
    `http://0177.0102.0.1:${p}/`,
    `http://127.66.1:${p}/`,
    `http://%31%32%37.66.0.1:${p}/`,
    `http://${fullwidth}:${p}/`,
    `http://user:secret@127.66.0.1:${p}/`,
    `//127.66.0.1:${ports.https}/`,
    `http:\\\\127.66.0.1:${p}\\`,
    `https://forbidden.test:${ports.https}/`,
    `http://FORBIDDEN.test.:${p}/`,
  ];
}

const PRIVATE_TARGETS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::ffff:a00:1]/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://0xa9fea9fe/latest/meta-data/',
];

/** A redirect server: /spelling/<n> goes to target n, anything else to the next target in turn. */
function cyclingRedirect(targets: string[], emitted: Set<string>): Behaviour {
  let turn = 0;
  return redirect((head) => {
    const chosen = /^\/spelling\/(\d+)$/.exec(head.path);
    const target = targets[chosen ? Number(chosen[1]) : turn++ % targets.length]!;
    emitted.add(target);
    return target;
  });
}

interface Fixture {
  world: World;
  dataDir: string;
  config: Config;
  sites: Map<string, HostileServer>;
  forbidden: HostileServer;
  rebinding: RebindingDns;
  emitted: { forbidden: Set<string>; private: Set<string> };
  spellings: string[];
}

async function startFixture(): Promise<Fixture> {
  const world = await startWorld({ sitesDir: SITES_DIR });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dvs-hostile-'));
  const config = loadConfig({
    ...world.env,
    DVS_DATA_DIR: dataDir,
    DVS_ALLOW_NETWORKS: '127.77.0.0/16',
    DVS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    DVS_FULL_DEADLINE_MS: String(FULL_DEADLINE_MS),
    DVS_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  });
  // Whatever started before a failure is closed again, so a failed start-up leaves no listener behind.
  const started: { close(): Promise<void> }[] = [];
  try {
    return await startServers(world, config, dataDir, started);
  } catch (err) {
    await Promise.all(started.map((s) => s.close()));
    await world.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

async function startServers(
  world: World,
  config: Config,
  dataDir: string,
  started: { close(): Promise<void> }[],
): Promise<Fixture> {
  const ports = { http: world.httpPort, https: world.httpsPort };
  const sites = new Map<string, HostileServer>();
  const forbidden = await startForbiddenServer(FORBIDDEN, [ports.http, ports.https]);
  started.push(forbidden);
  const spellings = forbiddenSpellings(ports);
  const emitted = { forbidden: new Set<string>(), private: new Set<string>() };
  const member = gzipBombMember(BOMB_MEMBER_BYTES);

  const byDomain = new Map(world.sites.map((s) => [s.domain, s]));
  const start = async (
    domain: string,
    https: HttpsMode,
    http: boolean,
    behaviour: (stats: ServerStats) => Behaviour,
  ): Promise<void> => {
    const site = byDomain.get(domain)!;
    const credentials = await world.issueCertificate(site.name, [domain]);
    const server = await startHostileSite({ address: site.address, https, http, behaviour }, ports, credentials);
    started.push(server);
    sites.set(domain, server);
  };
  const robotsPrefix = (scheme: string): string =>
    `User-agent: *\nAllow: /\nSitemap: ${scheme}://gzip-bomb.test:${scheme === 'https' ? ports.https : ports.http}/sitemap.xml.gz\n`;

  await Promise.all([
    start('silent-tcp.test', 'tcp-silent', true, () => silent),
    start('silent-tls.test', 'tls', true, () => silent),
    start('tls-stall.test', 'tls-stall', false, () => silent),
    start('trickle-headers.test', 'tls', true, trickleHeaders),
    start('trickle-body.test', 'tls', true, trickleBody),
    start('endless-headers.test', 'tls', true, endlessHeaders),
    start('flood-body.test', 'tls', true, (stats) => floodBody(stats, FLOOD_BYTES)),
    start('gzip-bomb.test', 'tls', true, (stats) => gzipBomb(stats, member, BOMB_MEMBERS, robotsPrefix)),
    start('redirect-loop.test', 'tls', true, () => {
      let hop = 0;
      return redirect((head) => `${head.path.split('?')[0]}?hop=${hop++}`);
    }),
    start('redirect-private.test', 'tls', true, () => cyclingRedirect(PRIVATE_TARGETS, emitted.private)),
    start('redirect-forbidden.test', 'tls', true, () => cyclingRedirect(spellings, emitted.forbidden)),
    start('split-a.test', 'tls', true, () => plain),
    start('rebind.test', 'tls', true, () => plain),
  ]);
  const rebinding = await startRebindingDns({
    name: 'rebind.test',
    addresses: [byDomain.get('rebind.test')!.address, FORBIDDEN],
    upstreamPort: world.dnsPort,
  });
  started.push(rebinding);
  return { world, dataDir, config, sites, forbidden, rebinding, emitted, spellings };
}

/** Loaded once: three loads would cost the scans seconds of CPU on a busy machine. */
const ruleset = catalogue();
const scannerFor = (config: Config): Scanner => createScanner({ config, ruleset, providers, log, agentKey: null });

/** Waits (bounded) until every connection the hostile servers accepted has been closed by the scanner. */
async function openConnections(servers: HostileServer[]): Promise<number> {
  const open = (): number => servers.reduce((sum, s) => sum + s.open, 0);
  for (let i = 0; i < 50 && open() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return open();
}

let fx: Fixture;
const outcomes = new Map<string, PromiseSettledResult<ScanOutcome>>();
let rssGrowth = 0;
let deadlineOutcome: PromiseSettledResult<ScanOutcome>;
const preflights = new Map<string, Awaited<ReturnType<Scanner['preflight']>>>();
let rebindOutcomes: PromiseSettledResult<ScanOutcome>[] = [];

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  fx = await startFixture();
  const scanner = scannerFor(fx.config);
  // The scan's deadline below one request's time limit: the scan must give up with ScanDeadlineError.
  const hurried = scannerFor({
    ...fx.config,
    net: { ...fx.config.net, limits: { ...fx.config.net.limits, requestTimeoutMs: 5000 } },
    deadlines: { ...fx.config.deadlines, fullMs: 1000 },
  });
  const rebinder = scannerFor({ ...fx.config, net: { ...fx.config.net, dnsServers: [fx.rebinding.server] } });

  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);

  const scanAll = Promise.allSettled(HOSTILE.map((d) => scanner.scan(d, 'full'))).then((settled) =>
    settled.forEach((s, i) => outcomes.set(HOSTILE[i]!, s)),
  );
  const notPublic = Promise.all(
    NOT_PUBLIC.map(async (d) => {
      preflights.set(d, await scanner.preflight(d, 'full'));
      outcomes.set(d, (await Promise.allSettled([scanner.scan(d, 'full')]))[0]);
    }),
  );
  // Two scans side by side: the resolver alternates its answers per question either way.
  const rebind = (async () => {
    preflights.set('rebind.test', await rebinder.preflight('rebind.test', 'full'));
    rebindOutcomes = await Promise.allSettled([
      rebinder.scan('rebind.test', 'full'),
      rebinder.scan('rebind.test', 'full'),
    ]);
  })();
  const hurriedScan = Promise.allSettled([hurried.scan('silent-tcp.test', 'full')]).then(
    ([s]) => (deadlineOutcome = s),
  );
  await Promise.all([scanAll, notPublic, rebind, hurriedScan]);

  clearInterval(sampler);
  rssGrowth = rssPeak - rssBefore;
}, 90_000);

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await Promise.all([...(fx?.sites.values() ?? [])].map((s) => s.close()));
  await fx?.forbidden.close();
  await fx?.rebinding.close();
  await fx?.world.stop();
  if (fx) rmSync(fx.dataDir, { recursive: true, force: true });
});

const reportOf = (domain: string): ScanOutcome => {
  const settled = outcomes.get(domain)!;
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
};

/** Every fact of the http and wellknown namespaces, as [dotted path, value] pairs. */
function facts(o: ScanOutcome): [string, unknown][] {
  const walk = (value: unknown, at: string): [string, unknown][] =>
    value === null || typeof value !== 'object'
      ? [[at, value]]
      : Object.entries(value).flatMap(([k, v]) => walk(v, `${at}.${k}`));
  return [...walk(o.observations.http, 'http'), ...walk(o.observations.wellknown, 'wellknown')];
}
/** The failure facts (`error` fields) recorded by the http and wellknown probes. */
const errors = (o: ScanOutcome): unknown[] =>
  facts(o)
    .filter(([p, v]) => p.endsWith('.error') && v !== null)
    .map(([, v]) => v);
/** The home page exchange as the http probe recorded it. */
const homePage = (o: ScanOutcome) =>
  (
    o.observations.http as {
      response: { chain: { error: string | null }; body_bytes: number | null; wire_bytes: number | null };
    }
  ).response;

describe('a full scan of a hostile server', () => {
  it.each(HOSTILE)('%s returns a report judged on evidence, with every probe ok or timed out', (domain) => {
    const { report, observations } = reportOf(domain);
    expect(['NOT_CONFORMANT', 'INCOMPLETE']).toContain(report.verdict);
    for (const [name, run] of Object.entries(observations.probes)) {
      expect.soft(['ok', 'timeout'], `probe ${name}: ${run.error ?? ''}`).toContain(run.status);
    }
  });

  it.each([
    'silent-tcp.test',
    'silent-tls.test',
    'tls-stall.test',
    'trickle-headers.test',
    'trickle-body.test',
  ] as const)('%s: the home page request is recorded as timed out', (domain: HostileDomain) => {
    const o = reportOf(domain);
    expect(o.observations.probes.http?.status).toBe('ok');
    expect(homePage(o).chain.error).toBe('timeout');
  });

  it('endless-headers.test: the header block is refused at the header limit', () => {
    expect(errors(reportOf('endless-headers.test'))).toContain('headers_too_large');
  });

  it.each(['flood-body.test', 'gzip-bomb.test'] as const)(
    '%s: every body is cut at the byte limit, on the wire and decoded',
    (domain) => {
      const o = reportOf(domain);
      const sizes = facts(o).filter(
        ([p, v]) => /\.(bytes|body_bytes|wire_bytes|uncompressed_bytes)$/.test(p) && typeof v === 'number',
      );
      expect(sizes.length).toBeGreaterThan(0);
      for (const [p, v] of sizes) expect(v, p).toBeLessThanOrEqual(MAX_BODY_BYTES);
      expect(facts(o).filter(([p, v]) => p.endsWith('.truncated') && v === true).length).toBeGreaterThan(0);
    },
  );

  it.each(['flood-body.test', 'gzip-bomb.test', 'endless-headers.test'] as const)(
    '%s: the server could hand over only a small part of what it offered',
    (domain) => {
      const { stats } = fx.sites.get(domain)!;
      expect(stats.requests).toBeGreaterThan(0);
      // What the kernel's socket buffers took in besides the capped read; the offer was 300 MiB or 8 MiB a request.
      expect(stats.bytesWritten / stats.requests).toBeLessThan(16 * MiB);
    },
  );

  it('redirect-loop.test: the redirect chain stops at the redirect limit', () => {
    expect(errors(reportOf('redirect-loop.test'))).toContain('too_many_redirects');
  });

  it.each(['redirect-private.test', 'redirect-forbidden.test'] as const)(
    '%s: redirects into private space are refused, as facts',
    (domain) => {
      const o = reportOf(domain);
      expect(errors(o)).toContain('policy_refused');
      expect(errors(o).filter((e) => e !== 'policy_refused' && e !== 'dns_nxdomain' && e !== 'timeout')).toEqual([]);
    },
  );

  it('redirect-private.test: the scans met every private target in turn', () => {
    expect([...fx.emitted.private].sort()).toEqual([...PRIVATE_TARGETS].sort());
  });

  it('split-a.test: only the allowed one of its two addresses is used', () => {
    const o = reportOf('split-a.test');
    expect(homePage(o).chain.error).toBeNull();
    expect(fx.sites.get('split-a.test')!.stats.requests).toBeGreaterThan(0);
  });
});

describe('addresses the scanner must not reach', () => {
  it.each(NOT_PUBLIC)(
    '%s is refused by the preflight as not public, and a scan of it still ends in a report',
    (domain) => {
      expect(preflights.get(domain)).toMatchObject({ ok: false, reason: 'not_public' });
      expect(['NOT_CONFORMANT', 'INCOMPLETE']).toContain(reportOf(domain).report.verdict);
    },
  );

  it('a name whose answers rebind between an allowed and the forbidden address never reaches the forbidden one', () => {
    const allowed = fx.world.sites.find((s) => s.domain === 'rebind.test')!.address;
    expect(preflights.get('rebind.test')).toMatchObject({ ok: true });
    expect(new Set(fx.rebinding.answered)).toEqual(new Set([allowed, FORBIDDEN]));
    for (const s of rebindOutcomes) expect(s.status, String((s as PromiseRejectedResult).reason)).toBe('fulfilled');
  });

  it('every spelling of the forbidden address in a Location header is refused by the network layer', async () => {
    const net = createNet(fx.config);
    const https = fx.world.httpsPort;
    const refused = await Promise.all(
      fx.spellings.map((spelling, i) =>
        net.request(`https://redirect-forbidden.test:${https}/spelling/${i}`, { followRedirects: true }).then(
          () => `${spelling}: followed`,
          (err: unknown) => (err instanceof NetError ? err.code : String(err)),
        ),
      ),
    );
    expect(Object.fromEntries(fx.spellings.map((s, i) => [s, refused[i]]))).toEqual(
      Object.fromEntries(fx.spellings.map((s) => [s, 'policy_refused'])),
    );
    expect([...fx.emitted.forbidden].sort()).toEqual([...fx.spellings].sort());
  });

  it('the forbidden server saw no connection at all', () => {
    expect(fx.forbidden.stats.connections).toBe(0);
  });
});

describe('the process stays bounded', () => {
  it('gives up with ScanDeadlineError when the deadline is shorter than one request', () => {
    expect(deadlineOutcome.status).toBe('rejected');
    expect((deadlineOutcome as PromiseRejectedResult).reason).toBeInstanceOf(ScanDeadlineError);
  });

  it(`grows its resident memory by less than ${RSS_GROWTH_BOUND / MiB} MiB across all the scans`, () => {
    expect(rssGrowth).toBeLessThan(RSS_GROWTH_BOUND);
  });

  it('leaves no connection open once the scans are over', async () => {
    expect(await openConnections([...fx.sites.values()])).toBe(0);
  });

  it('raises no unhandled rejection', () => {
    expect(unhandled).toEqual([]);
  });
});
