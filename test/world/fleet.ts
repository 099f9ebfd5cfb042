// A fleet in the fixture internet (issue 32 section 5): `f0.fleet.test` ... `f<N-1>.fleet.test`, each a copy of
// one world site (FLEET_TEMPLATES, round robin), answered by the world's own DNS server and served over HTTPS
// with one wildcard certificate (`*.fleet.test`) per template. Nothing is made per domain until it is asked
// for: a domain's site (the template with its domain swapped in) is derived on first use and kept in a bounded
// cache, so the world's memory does not grow with N beyond one listener pair per ten domains.
import type http from 'node:http';
import { BoundedCache } from '../../src/lib/bounded-cache.ts';
import type { ServerCredentials } from './ca.ts';
import type { HostTable } from './shared-address.ts';
import type { Site } from './site-config.ts';
import { createHttpsServer, siteHandler, type SiteHttpsServer, type SiteServerContext } from './site-server.ts';

/** The suffix under which fleet domains live; the world declares it a public suffix, so each is registrable. */
export const FLEET_SUFFIX = 'fleet.test';

/**
 * What each fleet domain behaves like: f<i> is a copy of FLEET_TEMPLATES[i % 10]. Six in ten are good.test;
 * the others each carry one defect a customer's fleet typically shows. Every template must serve HTTPS, and
 * none may depend on a second name (a www alias, a canonical host): a fleet domain has its one name only.
 * Nor an IPv6 address: the world has one ([::1]), and thousands of domains on it would be one host to the
 * service's per-address politeness, where a customer's fleet spreads ten to an address (fleetAddress).
 */
export const FLEET_TEMPLATES = [
  'good',
  'http-no-hsts',
  'good',
  'tls-expired',
  'good',
  'dns-no-caa',
  'good',
  'http-soft-404',
  'good',
  'good',
] as const;

/** More would pass the 20,000 descriptors a process may hold here (two listeners per ten domains, and sockets). */
export const MAX_FLEET = 50_000;

/**
 * What a fleet site derives (its site, zones, handlers) is kept a minute for the last 2,000 names asked about:
 * a scan asks many times within seconds, and the bound holds the world's memory for fleets of any size.
 */
export const FLEET_CACHE = { maxKeys: 2000, ttlSeconds: 60 };

export const fleetDomain = (i: number): string => `f${i}.${FLEET_SUFFIX}`;

const FLEET_NAME = new RegExp(`^f(0|[1-9][0-9]{0,5})\\.${FLEET_SUFFIX.replace('.', '\\.')}$`);

/** The index of a fleet domain of this fleet, or undefined for any other name. */
export function fleetIndex(name: string, size: number): number | undefined {
  const match = FLEET_NAME.exec(name);
  const i = match ? Number(match[1]) : -1;
  return i >= 0 && i < size ? i : undefined;
}

/** Domains f<10g> ... f<10g+9> share address g, as a hosting platform puts many customers on one address. */
export function fleetAddress(i: number): string {
  const group = Math.floor(i / FLEET_TEMPLATES.length);
  return `127.201.${group >> 8}.${group & 255}`;
}

/** The addresses a fleet of `size` domains listens on. */
export function fleetAddresses(size: number): string[] {
  return Array.from({ length: Math.ceil(size / FLEET_TEMPLATES.length) }, (_, g) =>
    fleetAddress(g * FLEET_TEMPLATES.length),
  );
}

function swapped(value: unknown, from: RegExp, to: string): unknown {
  if (typeof value === 'string') return value.replace(from, to);
  if (Array.isArray(value)) return value.map((v) => swapped(v, from, to));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swapped(v, from, to)]));
  return value;
}

export interface Fleet {
  size: number;
  /** The template site of each fleet domain, by template name. */
  templates: ReadonlyMap<string, Site>;
  templateOf(i: number): Site;
  /** The fleet domain's own site (its template with the name swapped in), or undefined for a name not in it. */
  site(name: string): Site | undefined;
}

export function createFleet(size: number, sites: readonly Site[]): Fleet {
  if (!Number.isInteger(size) || size < 0 || size > MAX_FLEET)
    throw new Error(`a fleet is 0 to ${MAX_FLEET} domains, not ${size}`);
  const templates = new Map<string, Site>();
  for (const name of new Set(FLEET_TEMPLATES)) {
    const site = sites.find((s) => s.name === name);
    if (!site?.spec.https)
      throw new Error(`the fleet imitates the world site ${name}, which is missing or serves no HTTPS`);
    templates.set(name, site);
  }
  const templateOf = (i: number) => templates.get(FLEET_TEMPLATES[i % FLEET_TEMPLATES.length]!)!;
  const derived = new BoundedCache<Site>(FLEET_CACHE);
  return {
    size,
    templates,
    templateOf,
    site(name) {
      const i = fleetIndex(name, size);
      if (i === undefined) return undefined;
      const cached = derived.get(name);
      if (cached) return cached;
      const template = templateOf(i);
      // Every mention of the template's name becomes the fleet domain's, as `{{domain}}` would have made it.
      const own = new RegExp(`(?<![a-z0-9-])${template.spec.domain.replaceAll('.', '\\.')}(?![a-z0-9-])`, 'g');
      const { aliases: _aliases, canonical_host: _canonical, ...spec } = template.spec;
      const site: Site = {
        ...template,
        name,
        spec: { ...(swapped(spec, own, name) as Site['spec']), domain: name, aliases: [], ipv6: false },
        address: fleetAddress(i),
        nameServers: template.nameServers.map((ns) => ({ ...ns, name: ns.name.replace(own, name) })),
      };
      derived.set(name, site);
      return site;
    },
  };
}

/** The HTTPS and HTTP service of a fleet: what each fleet address's fronts hand their connections to. */
export interface FleetServers {
  /** One TLS server per template, with its wildcard certificate; they listen nowhere themselves. */
  tlsServers: SiteHttpsServer[];
  /** Who serves a name over HTTPS at an address: its template's TLS server, if the name lives there. */
  https(address: string): HostTable<SiteHttpsServer>;
  http(address: string): HostTable<http.RequestListener>;
}

export function fleetServers(
  fleet: Fleet,
  base: Omit<SiteServerContext, 'site'>,
  credentials: ReadonlyMap<string, ServerCredentials>,
): FleetServers {
  const handlers = new BoundedCache<Record<'https' | 'http', ReturnType<typeof siteHandler>>>(FLEET_CACHE);
  const handlersOf = (host: string) => {
    const cached = handlers.get(host);
    if (cached) return cached;
    const site = fleet.site(host);
    if (!site) return undefined;
    const ctx = { ...base, site };
    const made = { https: siteHandler(ctx, 'https'), http: siteHandler(ctx, 'http') };
    handlers.set(host, made);
    return made;
  };
  const tls = new Map(
    [...fleet.templates].map(([name, template]) => {
      const server = createHttpsServer({ ...base, site: template }, credentials.get(name)!, (req, res) => {
        const host = (req.headers.host ?? ('authority' in req ? req.authority : '')).replace(/:\d+$/, '');
        const own = handlersOf(host.toLowerCase());
        if (own) return own.https(req, res);
        res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`no site named ${host || '(no Host)'} on this address\n`);
      });
      return [name, server] as const;
    }),
  );
  const here = (address: string, host: string) => {
    const i = fleetIndex(host, fleet.size);
    return i !== undefined && fleetAddress(i) === address ? i : undefined;
  };
  return {
    tlsServers: [...tls.values()],
    https: (address) => ({
      get(host) {
        const i = here(address, host);
        return i === undefined ? undefined : tls.get(FLEET_TEMPLATES[i % FLEET_TEMPLATES.length]!);
      },
    }),
    http: (address) => ({
      get: (host) => (here(address, host) === undefined ? undefined : handlersOf(host)?.http),
    }),
  };
}
