// Reads and validates the fixture sites (test/world/sites/<name>/site.yaml). The schema is strict so a typo in
// a site file stops the world with the file and the field instead of silently serving something else.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { isIPv4 } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { normaliseFilePath, type FileLayer } from './site-files.ts';

/** In site.yaml strings and served text files: the domain of the site that serves them. */
export const DOMAIN_TEMPLATE = /\{\{\s*domain\s*\}\}/g;

const hostname = z
  .string()
  .transform((s) => s.toLowerCase().replace(/\.$/, ''))
  .refine(
    (s) => /^(?=.{1,253}$)([a-z0-9_*]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(s),
    {
      message: 'not a hostname',
    },
  );
const loopbackV4 = z
  .string()
  .refine((s) => isIPv4(s) && s.startsWith('127.'), { message: 'must be an IPv4 address in 127.0.0.0/8' });
const headerValue = z.union([z.string(), z.number()]).transform(String);
const headers = z.record(
  z.string().transform((k) => k.toLowerCase()),
  z.union([headerValue, z.array(headerValue)]),
);
const tlsVersion = z.enum(['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
const uint = (max: number) => z.number().int().min(0).max(max);

const svcb = z
  .object({
    priority: uint(65535),
    target: z.string(),
    alpn: z.array(z.string()).optional(),
    no_default_alpn: z.boolean().optional(),
    port: uint(65535).optional(),
    ipv4hint: z.array(z.string().refine(isIPv4)).optional(),
    /** ECHConfigList, base64. Only its presence matters to probes, so any bytes do. */
    ech: z.string().optional(),
    ipv6hint: z.array(z.string()).optional(),
  })
  .strict();

const recordName = z.string().min(1);
const ttl = uint(2147483647).optional();
const dnsRecord = z.discriminatedUnion('type', [
  z
    .object({
      name: recordName,
      ttl,
      type: z.literal('A'),
      data: z.string().refine(isIPv4, { message: 'not an IPv4 address' }),
    })
    .strict(),
  z.object({ name: recordName, ttl, type: z.literal('AAAA'), data: z.string() }).strict(),
  z.object({ name: recordName, ttl, type: z.enum(['CNAME', 'NS', 'PTR']), data: hostname }).strict(),
  z
    .object({ name: recordName, ttl, type: z.literal('TXT'), data: z.union([z.string(), z.array(z.string())]) })
    .strict(),
  z
    .object({
      name: recordName,
      ttl,
      type: z.literal('MX'),
      data: z.object({ preference: uint(65535), exchange: z.string() }).strict(),
    })
    .strict(),
  z
    .object({
      name: recordName,
      ttl,
      type: z.literal('CAA'),
      data: z.object({ flags: uint(255).default(0), tag: z.string(), value: z.string() }).strict(),
    })
    .strict(),
  z
    .object({
      name: recordName,
      ttl,
      type: z.literal('SOA'),
      data: z
        .object({
          mname: z.string().optional(),
          rname: z.string().optional(),
          serial: uint(4294967295).optional(),
          refresh: uint(2147483647).optional(),
          retry: uint(2147483647).optional(),
          expire: uint(2147483647).optional(),
          minimum: uint(2147483647).optional(),
        })
        .strict(),
    })
    .strict(),
  z.object({ name: recordName, ttl, type: z.enum(['HTTPS', 'SVCB']), data: svcb }).strict(),
  z
    .object({
      name: recordName,
      ttl,
      type: z.literal('DS'),
      data: z
        .object({
          keyTag: uint(65535),
          algorithm: uint(255),
          digestType: uint(255),
          digest: z.string().regex(/^([0-9a-fA-F]{2})+$/),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      name: recordName,
      ttl,
      type: z.literal('DNSKEY'),
      data: z.object({ flags: uint(65535), algorithm: uint(255), key: z.string().min(1) }).strict(),
    })
    .strict(),
]);

/** An Ed25519 private key as a JWK (RFC 8037): the world signs responses with it. */
const privateJwk = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().min(1),
    d: z.string().min(1),
    kid: z.string().optional(),
  })
  .strict();

const mediaType = z
  .string()
  .regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/, { message: 'not a media type (type/subtype, lower case)' });

/** Another representation of a route, chosen by the request's Accept: a file from files/, and headers of its own. */
const variant = z.union([
  z.string().transform((file) => ({ file, headers: {} })),
  z.object({ file: z.string(), headers: headers.default({}) }).strict(),
]);

/** A Streamable HTTP MCP server at the route, answered by the MCP SDK (stateless: no session id). */
const mcpServer = z
  .object({
    name: z.string().min(1),
    version: z.string().min(1),
    /** true: answers as one JSON body; false: as an SSE stream (both are valid Streamable HTTP). */
    json_response: z.boolean().default(false),
    tools: z
      .array(
        z
          .object({
            name: z.string().min(1),
            description: z.string().min(1),
            input_schema: z.record(z.string(), z.unknown()),
            /** The text a tools/call of this tool answers with. */
            answer: z.string(),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

const route = z
  .object({
    status: z.number().int().min(100).max(599).optional(),
    headers: headers.optional(),
    body: z.string().optional(),
    file: z.string().optional(),
    delay_ms: uint(600_000).optional(),
    generate_bytes: uint(Number.MAX_SAFE_INTEGER).optional(),
    /** Shortcut for a redirect: the Location value (status from redirect_status, default 301). */
    redirect: z.string().optional(),
    redirect_status: z
      .union([z.literal(301), z.literal(302), z.literal(303), z.literal(307), z.literal(308)])
      .optional(),
    /** Media type -> file served instead when the request's Accept prefers it; every answer gets Vary: Accept. */
    variants: z.record(mediaType, variant).optional(),
    mcp: mcpServer.optional(),
    /** Private keys that sign the response as a key directory (draft-meunier-http-message-signatures-directory). */
    sign_directory: z.array(privateJwk).min(1).optional(),
    /** Signs the served A2A agent card with this key, naming the key set at jku (see sign-agent-card.ts). */
    sign_agent_card: z
      .object({
        key: privateJwk,
        jku: z.string().min(1),
        altered_after_signing: z.record(z.string(), z.unknown()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((r) => [r.body, r.file, r.generate_bytes, r.redirect, r.mcp].filter((x) => x !== undefined).length <= 1, {
    message: 'a route has at most one of body, file, generate_bytes, redirect, mcp',
  })
  .refine(
    (r) =>
      r.variants === undefined ||
      (r.body === undefined && r.generate_bytes === undefined && r.redirect === undefined && r.mcp === undefined),
    {
      message: 'variants go with a file route (the file at the path or `file`)',
    },
  );

const siteSchema = z
  .object({
    /** Free text saying what the site is for. */
    description: z.string().optional(),
    domain: hostname,
    aliases: z.array(hostname).default([]),
    address: loopbackV4.optional(),
    ipv6: z.boolean().default(false),
    https: z
      .object({
        min_version: tlsVersion.default('TLSv1.2'),
        max_version: tlsVersion.default('TLSv1.3'),
        certificate: z
          .enum(['valid', 'expired', 'not-yet-valid', 'wrong-name', 'self-signed', 'leaf-only'])
          .default('valid'),
        key: z.enum(['ec-p256', 'rsa-2048']).default('ec-p256'),
        ciphers: z.string().nullable().default(null),
        alpn: z.array(z.string()).nullable().default(null),
        /** Days from now to the leaf's notAfter (valid, wrong-name, self-signed, leaf-only). */
        expires_in_days: z.number().int().min(1).max(3650).default(90),
      })
      .strict()
      .optional(),
    http: z
      .object({
        redirect_to_https: z.boolean().default(false),
        redirect_status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(301),
        /** Headers on plain-HTTP responses (the HTTPS `headers` are not sent over HTTP). */
        headers: headers.default({}),
      })
      .strict()
      .optional(),
    headers: headers.default({}),
    delay_ms: uint(600_000).default(0),
    /** Round trip of this site, replacing the world's `rttMs`: added to every connection set-up and response. */
    rtt_ms: uint(60_000).optional(),
    catch_all: z.boolean().default(false),
    web_bot_auth: z.boolean().default(false),
    /** Requests for the site's other names redirect to this one (path and query kept); HTTP upgrades first. */
    canonical_host: z
      .object({
        name: hostname,
        status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(301),
      })
      .strict()
      .optional(),
    compress: z.boolean().default(false),
    /**
     * A receiving site: it records every request (method, path, headers, body), lists them at `GET /_received`,
     * and answers the rest with the statuses scripted through the world's control URL (200 once they run out).
     */
    receiver: z.boolean().default(false),
    routes: z.record(z.string().startsWith('/'), route).default({}),
    dns: z
      .object({
        behaviour: z.enum(['normal', 'nxdomain', 'timeout', 'servfail', 'refused']).default('normal'),
        ad: z.boolean().default(false),
        records: z.array(dnsRecord).default([]),
      })
      .strict()
      .default({ behaviour: 'normal', ad: false, records: [] }),
  })
  .strict()
  .refine((s) => s.canonical_host === undefined || [s.domain, ...s.aliases].includes(s.canonical_host.name), {
    message: 'canonical_host.name must be the domain or one of the aliases',
    path: ['canonical_host', 'name'],
  });

export type SiteSpec = z.infer<typeof siteSchema>;
export type DnsRecordSpec = z.infer<typeof dnsRecord>;
export type RouteSpec = z.infer<typeof route>;
export type HeaderMap = z.infer<typeof headers>;
export type McpServerSpec = z.infer<typeof mcpServer>;
export type PrivateJwk = z.infer<typeof privateJwk>;

/** A site as the world serves it: its folder name, the validated spec and the addresses given to it. */
export interface Site {
  name: string;
  dir: string;
  /** Where its files come from: its own files/ first, then those of the sites it extends. */
  files: FileLayer[];
  spec: SiteSpec;
  address: string;
  /** The two name servers of the zone, in distinct /16 (so distinct /24) networks. */
  nameServers: { name: string; address: string }[];
  /** Deterministic small number from the sorted position, used in serials and addresses. */
  index: number;
}

export class SiteConfigError extends Error {
  override name = 'SiteConfigError';
}

type Raw = Record<string, unknown>;

/** The fields that say how a site builds on another; they are resolved away before the site is validated. */
const inheritance = z.object({
  extends: z.string().min(1).optional(),
  remove_files: z.array(z.string().min(1)).default([]),
  dns: z
    .object({ remove_records: z.array(z.object({ name: recordName, type: z.string().min(1) }).strict()).default([]) })
    .passthrough()
    .optional(),
});

/** What a site names for itself and never takes from the site it extends. */
const OWN_ONLY = new Set(['description', 'domain', 'aliases', 'address', 'canonical_host']);

function isObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key (a null removes the base's key); anything else is replaced by the site's own value. */
function mergeValues(base: unknown, own: unknown): unknown {
  if (!isObject(own)) return own;
  const out: Raw = isObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(own)) {
    if (value === null) delete out[key];
    else out[key] = mergeValues(out[key], value);
  }
  return out;
}

function withDomain(value: unknown, domain: string): unknown {
  if (typeof value === 'string') return value.replace(DOMAIN_TEMPLATE, domain);
  if (Array.isArray(value)) return value.map((v) => withDomain(v, domain));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDomain(v, domain)]));
  return value;
}

/** A record's identity for replacement: its owner name (relative to the domain) and type. */
function recordKey(record: unknown, domain: string): string {
  const r = isObject(record) ? record : {};
  const name = String(withDomain(r.name ?? '', domain))
    .toLowerCase()
    .replace(/\.$/, '');
  const owner =
    name === '@' || name === domain ? '@' : name.endsWith(`.${domain}`) ? name.slice(0, -domain.length - 1) : name;
  return `${owner} ${typeof r.type === 'string' ? r.type.toUpperCase() : ''}`;
}

/** The base's records, less those the site removes or gives again (same name and type), plus the site's own. */
function mergeDns(base: unknown, own: unknown, removals: { name: string; type: string }[], domain: string): Raw {
  const baseDns = isObject(base) ? base : {};
  const { remove_records: _, ...ownDns } = isObject(own) ? own : {};
  const ownRecords: unknown[] = Array.isArray(ownDns.records) ? ownDns.records : [];
  const dropped = new Set([...ownRecords, ...removals].map((r) => recordKey(r, domain)));
  const kept = (Array.isArray(baseDns.records) ? (baseDns.records as unknown[]) : []).filter(
    (r) => !dropped.has(recordKey(r, domain)),
  );
  return { ...baseDns, ...ownDns, records: [...kept, ...ownRecords] };
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Reads the sites' YAML once each and resolves `extends` chains (before `{{domain}}` is filled in). */
class SiteReader {
  private readonly raw = new Map<string, Raw>();

  constructor(private readonly sitesDir: string) {}

  private file(name: string): string {
    return path.join(this.sitesDir, name, 'site.yaml');
  }

  private read(name: string): Raw {
    const cached = this.raw.get(name);
    if (cached) return cached;
    const file = this.file(name);
    let raw: unknown;
    try {
      raw = parseYaml(readFileSync(file, 'utf8'), { uniqueKeys: true });
    } catch (err) {
      throw new SiteConfigError(`${file}: ${(err as Error).message}`);
    }
    if (!isObject(raw)) throw new SiteConfigError(`${file}: (root): expected a mapping`);
    this.raw.set(name, raw);
    return raw;
  }

  /** The site's fields merged over those of the sites it extends, and its file layers. */
  resolve(name: string, chain: string[] = []): { raw: Raw; files: FileLayer[] } {
    if (chain.includes(name))
      throw new SiteConfigError(`${this.file(chain[0]!)}: extends loops (${[...chain, name].join(' -> ')})`);
    const raw = this.read(name);
    const parsed = inheritance.safeParse(raw);
    if (!parsed.success) throw new SiteConfigError(`${this.file(name)}: ${issuesOf(parsed.error)}`);
    const { extends: baseName, remove_files: removed, dns } = parsed.data;
    const removals = dns?.remove_records ?? [];
    const { extends: _e, remove_files: _r, ...own } = raw;
    const layer: FileLayer = { dir: path.join(this.sitesDir, name, 'files'), removed: removed.map(normaliseFilePath) };
    if (baseName === undefined) {
      if (removed.length > 0 || removals.length > 0) {
        throw new SiteConfigError(`${this.file(name)}: remove_files and dns.remove_records need extends`);
      }
      return { raw: own, files: [layer] };
    }
    if (!existsSync(this.file(baseName)))
      throw new SiteConfigError(`${this.file(name)}: extends ${baseName}, which is no site of ${this.sitesDir}`);
    const base = this.resolve(baseName, [...chain, name]);
    const domain = typeof own.domain === 'string' ? own.domain.toLowerCase() : '';
    const inherited = Object.fromEntries(Object.entries(base.raw).filter(([key]) => !OWN_ONLY.has(key)));
    const { dns: ownDns, ...rest } = own;
    const merged = mergeValues(inherited, rest) as Raw;
    merged.dns = mergeDns(inherited.dns, ownDns, removals, domain);
    return { raw: merged, files: [layer, ...base.files] };
  }
}

function parseSite(reader: SiteReader, name: string, file: string): { spec: SiteSpec; files: FileLayer[] } {
  const { raw, files } = reader.resolve(name);
  const domain = typeof raw.domain === 'string' ? raw.domain.toLowerCase().replace(/\.$/, '') : '';
  const result = siteSchema.safeParse(withDomain(raw, domain));
  if (!result.success) throw new SiteConfigError(`${file}: ${issuesOf(result.error)}`);
  return { spec: result.data, files };
}

/** The name a site's name stands for in a template's: the same label before the template's domain. */
function renamed(host: string, from: string, to: string): string {
  return host === from ? to : host.endsWith(`.${from}`) ? `${host.slice(0, -from.length)}${to}` : host;
}

/**
 * `site` answering as the site `template` does (DNS, TLS, HTTP), under its own names and address: the template's
 * fields, records and files, with `{{domain}}` filled in with the site's domain. Its canonical host is the
 * template's, renamed onto the site's names.
 */
export function standIn(sitesDir: string, site: Site, template: string): Site {
  const file = path.join(sitesDir, template, 'site.yaml');
  if (!existsSync(file)) throw new SiteConfigError(`${template} is no site of ${sitesDir}`);
  const { raw, files } = new SiteReader(sitesDir).resolve(template);
  const { domain, aliases } = site.spec;
  const { address: _address, canonical_host: canonical, ...fields } = raw;
  const own: Raw = { ...fields, description: `${domain} answering as ${template}`, domain, aliases };
  const from = typeof raw.domain === 'string' ? raw.domain.toLowerCase() : '';
  if (isObject(canonical) && typeof canonical.name === 'string') {
    const name = renamed(canonical.name.toLowerCase(), from, domain);
    if ([domain, ...aliases].includes(name)) own.canonical_host = { ...canonical, name };
  }
  const result = siteSchema.safeParse(withDomain(own, domain));
  if (!result.success) throw new SiteConfigError(`${file} as ${site.name}: ${issuesOf(result.error)}`);
  return { ...site, spec: result.data, files };
}

/** Site addresses not given in site.yaml are 127.100.x.y, in order of the sorted site names. */
function assignedAddress(n: number): string {
  return `127.100.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

export function loadSites(sitesDir: string): Site[] {
  const names = readdirSync(sitesDir)
    .filter((n) => existsSync(path.join(sitesDir, n, 'site.yaml')) && statSync(path.join(sitesDir, n)).isDirectory())
    .sort();
  const reader = new SiteReader(sitesDir);
  const specs = names.map((name) => ({ name, ...parseSite(reader, name, path.join(sitesDir, name, 'site.yaml')) }));

  const taken = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const { name, spec } of specs) {
    for (const host of [spec.domain, ...spec.aliases]) {
      const other = owners.get(host);
      if (other) throw new SiteConfigError(`${host} is served by both ${other} and ${name}`);
      owners.set(host, name);
    }
    if (spec.address) {
      const other = taken.get(spec.address);
      if (other) throw new SiteConfigError(`address ${spec.address} is used by both ${other} and ${name}`);
      taken.set(spec.address, name);
    }
  }

  let next = 0;
  return specs.map(({ name, spec, files }, index) => {
    let address = spec.address;
    while (!address) {
      const candidate = assignedAddress(next++);
      if (!taken.has(candidate)) address = candidate;
    }
    const dir = path.join(sitesDir, name);
    const hi = index >> 8;
    const lo = index & 255;
    return {
      name,
      dir,
      files,
      spec,
      address,
      nameServers: [
        { name: `ns1.${spec.domain}`, address: `127.53.${hi}.${lo}` },
        { name: `ns2.${spec.domain}`, address: `127.54.${hi}.${lo}` },
      ],
      index,
    };
  });
}
