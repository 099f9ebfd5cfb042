// The fixture internet: starts the resolver, a resolver that never answers, and every site's web servers on
// its own loopback address, and hands back the DVS_* settings that point the service at them.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestCa, type ServerCredentials } from './ca.ts';
import { startDnsServer, zoneResponder, silentResponder, type DnsServer } from './dns-server.ts';
import { loadSites, standIn, type Site } from './site-config.ts';
import { ControlError, controlUrl, startControl, type WorldControls } from './control.ts';
import { Receiver } from './receiver.ts';
import { SiteSlot } from './site-slot.ts';
import {
  createHttpServer,
  createHttpsServer,
  siteHandler,
  type SiteHttpsServer,
  type SiteServerContext,
} from './site-server.ts';
import { createHostFront, SniFront } from './shared-address.ts';
import { botAuthVerifier, type AgentJwk } from './bot-auth.ts';
import { createFleet, fleetAddresses, fleetDomain, fleetServers, FLEET_SUFFIX } from './fleet.ts';
import { Zones } from './zones.ts';

export const DEFAULT_SITES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sites');

export interface WorldOptions {
  /** Folder of site folders; default test/world/sites. */
  sitesDir?: string;
  /**
   * The names of the sites of sitesDir to serve, for a file that scans only these (each site costs a certificate
   * and listeners at start); default all of them.
   */
  sites?: readonly string[];
  /** Where the world writes its files (the CA PEM); default a temp dir removed at stop. */
  dataDir?: string;
  /** Public JWKs (Ed25519) whose Web Bot Auth signatures `web_bot_auth` sites accept. */
  trustedAgentKeys?: AgentJwk[];
  /**
   * A simulated round trip (ms): every connection set-up and every response of every site waits this long
   * (a site's `rtt_ms` overrides it). Default 0.
   */
  rttMs?: number;
  /** Fleet domains f0.fleet.test ... f<fleet-1>.fleet.test (fleet.ts); default none. */
  fleet?: number;
  /**
   * The ports every site listens on; default ports no other process holds. 443 and 80 let a client that cannot
   * be told a port (the Observatory comparison, bench/observatory.bench.ts) reach the sites.
   */
  ports?: { https: number; http: number };
}

export interface SiteInfo {
  name: string;
  domain: string;
  aliases: string[];
  address: string;
  ipv6: boolean;
  https: boolean;
  http: boolean;
  nameServers: { name: string; address: string }[];
}

export interface World {
  env: Record<string, string>;
  sites: SiteInfo[];
  /** The root CA every valid site certificate chains to. */
  caPem: string;
  dnsPort: number;
  deadDnsPort: number;
  httpsPort: number;
  httpPort: number;
  /**
   * A valid certificate (leaf and intermediate, EC P-256) from the world's CA for these names: for a server
   * the world does not run itself (see external-site.ts).
   */
  issueCertificate(label: string, names: string[]): Promise<ServerCredentials>;
  /** `https://<domain>:<port><path>` of a site (by site name), for tests that build URLs. */
  url(siteName: string, pathname?: string, scheme?: 'http' | 'https'): string;
  /** The fleet's size and the file naming its domains, one a line (also in env as DVS_FLEET_DOMAINS_FILE). */
  fleet: { size: number; domainsFile: string } | null;
  /** TCP connections the sites' HTTP and HTTPS listeners (or those of one scheme) have accepted since the start. */
  connections(scheme?: 'https' | 'http'): number;
  /** DNS queries the world's resolver has answered since the start (over UDP and TCP). */
  dnsQueries(): number;
  stop(): Promise<void>;
}

/** A listener the world closes: a site server, or a shared front on [::1]. */
type Server = net.Server & { closeAllConnections(): void };
/** Where `ipv6: true` sites are served, all on one address as their AAAA records say. */
const IPV6_ADDRESS = '::1';
const LISTEN_ATTEMPTS = 100;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** A port nothing in the world listens on, for a scheme no site serves. */
async function unusedPort(): Promise<number> {
  const probe = net.createServer();
  const port = await listen(probe as unknown as Server, 0, '127.0.0.1');
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Every site listens on its own address but all on one port (as all real sites use 443), so the port is taken
 * from the first bind and reused; if another process holds it on some address, start over with a new one.
 */
async function listenShared(group: { server: Server; address: string }[], fixed = 0): Promise<number> {
  if (group.length === 0) return fixed || unusedPort();
  for (let attempt = 1; ; attempt++) {
    let port = fixed;
    try {
      for (const { server, address } of group) port = await listen(server, port, address);
      return port;
    } catch (err) {
      await Promise.all(group.map(({ server }) => closeServer(server)));
      const retry = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' && !fixed && attempt < LISTEN_ATTEMPTS;
      if (!retry) throw err;
    }
  }
}

function info(site: Site): SiteInfo {
  const { spec } = site;
  return {
    name: site.name,
    domain: spec.domain,
    aliases: spec.aliases,
    address: site.address,
    ipv6: spec.ipv6,
    https: spec.https !== undefined,
    http: spec.http !== undefined,
    nameServers: site.nameServers,
  };
}

/** The sites named, each of which must exist; all of them when no names are given. */
function only(sites: Site[], names: readonly string[] | undefined): Site[] {
  if (!names) return sites;
  const missing = names.filter((n) => !sites.some((s) => s.name === n));
  if (missing.length > 0) throw new Error(`no such site: ${missing.join(', ')}`);
  return sites.filter((s) => names.includes(s.name));
}

export async function startWorld(opts: WorldOptions = {}): Promise<World> {
  const sitesDir = opts.sitesDir ?? DEFAULT_SITES_DIR;
  const sites = only(loadSites(sitesDir), opts.sites);
  const fleet = opts.fleet ? createFleet(opts.fleet, sites) : undefined;
  const zones = new Zones(sites, fleet);
  const ca = await TestCa.create();
  const credentials = new Map<string, ServerCredentials>();
  await Promise.all(
    sites.map(async (site) => {
      const tls = site.spec.https;
      if (!tls) return;
      const names = [site.spec.domain, ...site.spec.aliases];
      credentials.set(
        site.name,
        await ca.issue({
          label: site.name,
          names,
          certificate: tls.certificate,
          key: tls.key,
          expiresInDays: tls.expires_in_days,
        }),
      );
    }),
  );

  const fleetCredentials = new Map<string, ServerCredentials>();
  await Promise.all(
    [...(fleet?.templates ?? [])].map(async ([name, site]) => {
      const tls = site.spec.https!;
      fleetCredentials.set(
        name,
        await ca.issue({
          label: `fleet-${name}`,
          names: [`*.${FLEET_SUFFIX}`],
          certificate: tls.certificate,
          key: tls.key,
          expiresInDays: tls.expires_in_days,
        }),
      );
    }),
  );

  const ownDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'dvs-world-')));
  await mkdir(dataDir, { recursive: true });
  const caFile = path.join(dataDir, 'world-ca.pem');
  await writeFile(caFile, ca.rootPem);
  const fleetFile = path.join(dataDir, 'fleet-domains.txt');
  if (fleet) await writeFile(fleetFile, Array.from({ length: fleet.size }, (_, i) => fleetDomain(i) + '\n').join(''));

  const stopping = new AbortController();
  const ports = { http: 0, https: 0 };
  const verifyBotAuth = botAuthVerifier(opts.trustedAgentKeys ?? []);
  const receivers = new Map(sites.filter((s) => s.spec.receiver).map((s) => [s.name, new Receiver()]));
  const httpsOnV6 = new Map<string, SiteHttpsServer>();
  const httpOnV6 = new Map<string, http.RequestListener>();
  /** A site's servers for each scheme, made from what it currently answers as. */
  const serversOf = (site: Site, creds: ServerCredentials | undefined) => {
    const ctx: SiteServerContext = {
      site,
      ports,
      verifyBotAuth,
      signal: stopping.signal,
      rttMs: opts.rttMs ?? 0,
      receiver: receivers.get(site.name),
    };
    return {
      https: creds ? createHttpsServer(ctx, creds) : undefined,
      http: site.spec.http ? createHttpServer(ctx) : undefined,
      httpHandler: site.spec.http ? siteHandler(ctx, 'http') : undefined,
    };
  };
  /** Points [::1] at a site's servers when it serves IPv6, and away from the servers it replaces. */
  const routeV6 = (site: Site, previous: Site | undefined, servers: ReturnType<typeof serversOf>) => {
    for (const name of previous ? [previous.spec.domain, ...previous.spec.aliases] : []) {
      httpsOnV6.delete(name);
      httpOnV6.delete(name);
    }
    if (!site.spec.ipv6) return;
    for (const name of [site.spec.domain, ...site.spec.aliases]) {
      if (servers.https) httpsOnV6.set(name, servers.https);
      if (servers.httpHandler) httpOnV6.set(name, servers.httpHandler);
    }
  };
  const slots = new Map<string, { https: SiteSlot; http: SiteSlot }>();
  for (const site of sites) {
    const servers = serversOf(site, credentials.get(site.name));
    slots.set(site.name, {
      https: new SiteSlot(site.address, servers.https),
      http: new SiteSlot(site.address, servers.http),
    });
    routeV6(site, undefined, servers);
  }
  const slotGroup = (scheme: 'https' | 'http') =>
    [...slots.values()].map((s) => s[scheme]).filter((slot) => slot.serving);
  const httpsGroup: { server: Server; address: string }[] = slotGroup('https').map((s) => ({
    server: s,
    address: s.host,
  }));
  const httpGroup: { server: Server; address: string }[] = slotGroup('http').map((s) => ({
    server: s,
    address: s.host,
  }));
  // Fleet addresses: each front hands a connection to the server of the fleet domain it names, if it lives there.
  const fleetTls = fleet
    ? fleetServers(fleet, { ports, verifyBotAuth, signal: stopping.signal, rttMs: opts.rttMs ?? 0 }, fleetCredentials)
    : undefined;
  for (const address of fleetTls ? fleetAddresses(fleet!.size) : []) {
    httpsGroup.push({ server: new SniFront(fleetTls!.https(address)), address });
    httpGroup.push({ server: createHostFront(fleetTls!.http(address)), address });
  }
  // The [::1] fronts listen when some site serves IPv6 at start (a world without them leaves [::1] to its tests).
  if (httpsOnV6.size > 0) httpsGroup.push({ server: new SniFront(httpsOnV6), address: IPV6_ADDRESS });
  if (httpOnV6.size > 0) httpGroup.push({ server: createHostFront(httpOnV6), address: IPV6_ADDRESS });

  const dnsServers: DnsServer[] = [];
  // Every listener the world may close: a site's slots listen only while it serves that scheme.
  const listeners: Server[] = [
    ...new Set([
      ...[...slots.values()].flatMap((s) => [s.https, s.http]),
      ...[...httpsGroup, ...httpGroup].map((g) => g.server),
    ]),
  ];
  // A connection the [::1] front hands to a site's server reaches a second listener: count each socket once.
  const accepted = new WeakSet<net.Socket>();
  const connections = { https: 0, http: 0 };
  const httpsListeners = new Set<Server>([
    ...[...slots.values()].map((s) => s.https),
    ...httpsGroup.map((g) => g.server),
  ]);
  for (const server of listeners) {
    const scheme = httpsListeners.has(server) ? 'https' : 'http';
    server.on('connection', (socket: net.Socket) => {
      if (accepted.has(socket)) return;
      accepted.add(socket);
      connections[scheme]++;
    });
  }
  let dnsQueries = 0;
  const zoneAnswers = zoneResponder(zones);
  let control: http.Server | undefined;
  const stop = async (): Promise<void> => {
    stopping.abort();
    // The fleet's TLS servers listen nowhere: the connections the fronts handed them are closed here.
    for (const server of fleetTls?.tlsServers ?? []) server.closeAllConnections();
    await Promise.all([
      ...listeners.map(closeServer),
      ...dnsServers.map((d) => d.close()),
      ...(control ? [closeServer(control as Server)] : []),
    ]);
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const byName = new Map(sites.map((s) => [s.name, s]));
  const current = new Map(sites.map((s) => [s.name, s]));
  const siteNamed = (name: string): Site | undefined =>
    byName.get(name) ?? sites.find((s) => s.spec.domain === name.toLowerCase());
  /** Certificates of the sites as they change, by site and template, so changing back issues none. */
  const issued = new Map<string, ServerCredentials>(
    sites.flatMap((s) => {
      const creds = credentials.get(s.name);
      return creds ? [[`${s.name} ${s.name}`, creds] as const] : [];
    }),
  );
  const certificateFor = async (site: Site, template: string): Promise<ServerCredentials | undefined> => {
    const tls = site.spec.https;
    if (!tls) return undefined;
    const key = `${site.name} ${template}`;
    const known = issued.get(key);
    if (known) return known;
    const creds = await ca.issue({
      label: `${site.name}-as-${template}`,
      names: [site.spec.domain, ...site.spec.aliases],
      certificate: tls.certificate,
      key: tls.key,
      expiresInDays: tls.expires_in_days,
    });
    issued.set(key, creds);
    return creds;
  };
  // Changes run one at a time, so two requests never interleave their swaps of one site.
  let changes: Promise<unknown> = Promise.resolve();
  const changeSite = async (name: string, templateName: string | null) => {
    const own = siteNamed(name);
    if (!own) throw new ControlError(404, `${name} is no site of this world`);
    const template = templateName === null ? own : siteNamed(templateName);
    if (!template) throw new ControlError(404, `${templateName} is no site of this world`);
    const next = template === own ? own : standIn(sitesDir, own, template.name);
    const creds = await certificateFor(next, template.name);
    const slot = slots.get(own.name)!;
    const servers = serversOf(next, creds);
    await slot.https.serve(servers.https, ports.https);
    await slot.http.serve(servers.http, ports.http);
    routeV6(next, current.get(own.name), servers);
    zones.replace(next);
    current.set(own.name, next);
    return { site: own.name, as: template.name };
  };
  const controls: WorldControls = {
    changeSite: (name, template) => {
      const change = changes.then(() => changeSite(name, template));
      changes = change.catch(() => undefined);
      return change;
    },
    receiver: (name) => {
      const site = siteNamed(name);
      return site ? receivers.get(site.name) : undefined;
    },
  };

  try {
    const counted: typeof zoneAnswers = (query, transport) => {
      dnsQueries++;
      return zoneAnswers(query, transport);
    };
    dnsServers.push(await startDnsServer(counted), await startDnsServer(silentResponder));
    ports.https = await listenShared(httpsGroup, opts.ports?.https);
    ports.http = await listenShared(httpGroup, opts.ports?.http);
    control = await startControl(controls);
  } catch (err) {
    await stop();
    throw err;
  }
  const [dns, dead] = dnsServers as [DnsServer, DnsServer];

  return {
    env: {
      DVS_DNS_SERVERS: `${dns.host}:${dns.port}`,
      DVS_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      DVS_EXTRA_CA: caFile,
      DVS_PROBE_HTTP_PORT: String(ports.http),
      DVS_PROBE_HTTPS_PORT: String(ports.https),
      // With a fleet, fleet.test is a public suffix (the first listed wins): each fleet domain is registrable,
      // a customer's domain of its own rather than a subdomain of one site.
      DVS_EXTRA_SUFFIXES: fleet ? `${FLEET_SUFFIX},test` : 'test',
      DVS_WORLD_DEAD_DNS: `${dead.host}:${dead.port}`,
      ...(fleet ? { DVS_FLEET_DOMAINS_FILE: fleetFile } : {}),
      DVS_WORLD_CONTROL: controlUrl(control),
    },
    sites: sites.map(info),
    caPem: ca.rootPem,
    dnsPort: dns.port,
    deadDnsPort: dead.port,
    httpsPort: ports.https,
    httpPort: ports.http,
    issueCertificate: (label, names) =>
      ca.issue({ label, names, certificate: 'valid', key: 'ec-p256', expiresInDays: 90 }),
    url(siteName, pathname = '/', scheme = 'https') {
      const site = byName.get(siteName);
      if (!site) throw new Error(`no world site named ${siteName}`);
      const port = scheme === 'https' ? ports.https : ports.http;
      const defaultPort = scheme === 'https' ? 443 : 80;
      return `${scheme}://${site.spec.domain}${port === defaultPort ? '' : `:${port}`}${pathname}`;
    },
    fleet: fleet ? { size: fleet.size, domainsFile: fleetFile } : null,
    connections: (scheme) => (scheme ? connections[scheme] : connections.https + connections.http),
    dnsQueries: () => dnsQueries,
    stop,
  };
}
