// The one typed configuration of the service, read from DVS_* environment variables and, optionally, a JSON
// file named by DVS_CONFIG_FILE (the environment wins). Every value is validated here, at start, so a bad
// setting stops the process with its name instead of surfacing later as a strange failure.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { originProblem } from './https-origin.ts';
import { isoDurationMs } from './iso-duration.ts';
import { UNICODE_WHITESPACE, trimEndOf, trimOf } from './trim.ts';

export interface NetLimits {
  /** Most bytes read from one response body; the rest is cut off and the response marked truncated. */
  maxBodyBytes: number;
  /** Most bytes of response headers accepted. */
  maxHeaderBytes: number;
  /** Most redirects followed from one starting URL. */
  maxRedirects: number;
  /** Time allowed for one request or handshake, connect to last byte. */
  requestTimeoutMs: number;
  /** Time allowed for one DNS query. */
  dnsTimeoutMs: number;
  /** Requests or handshakes in flight at once for one scan. */
  maxConcurrentPerScan: number;
}

/**
 * Which forwarding headers to read and how far to believe them: `hops` proxies in front, or every proxy whose
 * address is in `networks`. The client is the rightmost address the trusted proxies did not add themselves.
 */
export interface ProxyTrust {
  header: 'x-forwarded' | 'forwarded';
  hops: number | null;
  networks: string[];
}

export interface Config {
  dataDir: string;
  /** Where derived files are kept (the checked ruleset artifact); rebuilt when missing or stale. */
  cacheDir: string;
  /** Public base URL of this service, used in every published document. */
  baseUrl: string;
  listen: { host: string; port: number; httpPort: number | null; metricsPort: number | null; metricsHost: string };
  tls: { certFile: string | null; keyFile: string | null };
  /** How long a client may take over the TLS handshake, its request headers, and then its body (ms). */
  clientTimeouts: { handshakeMs: number; headersMs: number; bodyMs: number };
  /** What one client connection may queue: pipelined requests waiting, and how long its output may not drain. */
  connections: { maxPipelined: number; drainMs: number };
  /** The proxies in front of the service, whose forwarding headers are believed; null: none. */
  trustProxy: ProxyTrust | null;
  /** Origins besides the service's own whose browser pages may call /mcp (a present Origin not listed is 403). */
  mcpAllowedOrigins: string[];
  net: {
    dnsServers: string[];
    allowNetworks: string[];
    extraCaFile: string | null;
    probeHttpPort: number;
    probeHttpsPort: number;
    userAgent: string;
    agentSigning: boolean;
    limits: NetLimits;
  };
  /** Extra public suffixes accepted by domain normalisation (e.g. `test` for the fixture internet). */
  extraSuffixes: string[];
  deadlines: { quickMs: number; fullMs: number };
  /** The service-wide bound on concurrent scans (src/service/scan-slots.ts). */
  scans: {
    limit: number;
    reservedForFull: number;
    queueLength: number;
    maxWaitMs: number;
    retryAfterSeconds: number;
    /** Quick Scans one client may have running, and as many waiting. */
    perClient: number;
  };
  quickScan: { cacheTtlSeconds: number; rateLimitPerMinute: number };
  /**
   * Batch work: items scanning at once on this instance, batch scans at once per registrable domain and per IP
   * address (across instances with Redis), and how often the job engine looks for the jobs of dead instances (s).
   */
  batches: {
    concurrency: number;
    /**
     * The event loop's worst lateness in each half second (ms) under which batch items are paced, up to
     * `concurrency` at once (src/service/batch-pace.ts); 0: `concurrency` at once, always.
     */
    paceDelayMs: number;
    politePerSite: number;
    politePerAddress: number;
    maintenanceSeconds: number;
    /** How long a claim outlives its scan's longest run, to record the result (s). */
    leaseMarginSeconds: number;
  };
  /** Monitors: the shortest interval between two runs of one monitor (ms); P1D unless lowered for tests. */
  monitors: { minIntervalMs: number };
  /** Webhook deliveries: the retry schedule divided by `retryDivisor` (tests), a rotated secret's overlap. */
  webhooks: { retryDivisor: number; secretOverlapSeconds: number };
  /**
   * Web Bot Auth on incoming requests: whether signatures are checked, how long a request waits for a key
   * directory fetch (ms), and the Quick Scan budget per minute of a verified agent (per directory origin).
   */
  callerIdentity: { enabled: boolean; directoryWaitMs: number; rateLimitPerMinute: number };
  databaseUrl: string | null;
  redisUrl: string | null;
  payments: {
    priceCents: number;
    currency: string;
    tokenTtlSeconds: number;
    reservationLeaseSeconds: number;
    /** Most unused tokens the test-mode checkout lets stand at once. */
    testTokenCap: number;
    stripeSecretKey: string | null;
    stripeWebhookSecret: string | null;
    stripeApiBase: string | null;
    /** How long a certificate's report is kept (null: as long as the certificate); the body is kept forever. */
    reportRetentionSeconds: number | null;
  };
  securityTxt: { contact: string; policy: string | null };
  certificates: {
    /** Issuers whose certificates `dvs verify` accepts (plain https origins); the service's own by default. */
    trustedIssuers: string[];
    /** How long a certificate is valid after its observations were made. */
    lifetimeSeconds: number;
  };
  logLevel: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Source = Record<string, string | undefined>;

function fileSource(env: Source): Source {
  const file = env.DVS_CONFIG_FILE;
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`DVS_CONFIG_FILE ${file}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`DVS_CONFIG_FILE ${file}: must hold a JSON object of DVS_* keys`);
  }
  const out: Source = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (!k.startsWith('DVS_')) throw new ConfigError(`DVS_CONFIG_FILE ${file}: unknown key ${k}`);
    // Each value becomes the string the environment would hold: a list comma-separated, null unset.
    if (v === null) continue;
    const scalars = Array.isArray(v) ? v : [v];
    if (!scalars.every((x) => ['string', 'number', 'boolean'].includes(typeof x))) {
      throw new ConfigError(`DVS_CONFIG_FILE ${file}: ${k} must be a string, number, boolean or a list of them`);
    }
    out[k] = scalars.map(String).join(',');
  }
  return out;
}

class Reader {
  constructor(private readonly src: Source) {}

  str(name: string, fallback: string): string {
    const v = this.src[name];
    return v === undefined || v === '' ? fallback : v;
  }

  optStr(name: string): string | null {
    const v = this.src[name];
    return v === undefined || v === '' ? null : v;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.src[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(trimOf(raw, UNICODE_WHITESPACE)))
      throw new ConfigError(`${name}: expected a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max) throw new ConfigError(`${name}: ${n} is outside ${min}..${max}`);
    return n;
  }

  optPort(name: string): number | null {
    return this.src[name] ? this.int(name, 0, 0, 65535) : null;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.src[name];
    if (raw === undefined || raw === '') return fallback;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new ConfigError(`${name}: expected a boolean (1/0, true/false), got "${raw}"`);
  }

  list(name: string): string[] {
    const raw = this.src[name];
    if (!raw) return [];
    return raw.split(/[\s,]+/).filter(Boolean);
  }
}

function checkHostPort(name: string, entry: string): void {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]+))(?::(\d{1,5}))?$/.exec(entry);
  if (!m || (m[3] && Number(m[3]) > 65535)) throw new ConfigError(`${name}: "${entry}" is not host[:port]`);
}

function trustedIssuers(r: Reader, baseUrl: string): string[] {
  const issuers = r.list('DVS_TRUSTED_ISSUERS');
  for (const issuer of issuers) {
    const problem = originProblem(issuer);
    if (problem) throw new ConfigError(`DVS_TRUSTED_ISSUERS: "${issuer}" is not a plain https origin: ${problem}`);
  }
  return issuers.length > 0 ? issuers : [baseUrl];
}

/** The origin as browsers send it in Origin (scheme://host[:port]), or null when the text is none. */
function serialisedOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

function mcpAllowedOrigins(r: Reader): string[] {
  const origins = r.list('DVS_MCP_ALLOWED_ORIGINS');
  for (const origin of origins) {
    // Origin headers carry the serialised origin, so only that form could ever match.
    if (serialisedOrigin(origin) !== origin)
      throw new ConfigError(
        `DVS_MCP_ALLOWED_ORIGINS: "${origin}" is not an origin as browsers send it (scheme://host[:port])`,
      );
  }
  return origins;
}

function checkCidr(name: string, entry: string): void {
  try {
    ipaddr.parseCIDR(entry);
  } catch {
    throw new ConfigError(`${name}: "${entry}" is not a CIDR range`);
  }
}

const DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Parses "90", "90s", "15m", "12h" or "30d" into seconds. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(trimOf(text, UNICODE_WHITESPACE));
  if (!m) return null;
  return Number(m[1]) * UNIT_SECONDS[m[2] ?? 's']!;
}

function durationSeconds(r: Reader, name: string, fallback: number): number {
  const raw = r.optStr(name);
  if (raw === null) return fallback;
  const s = parseDuration(raw);
  if (s === null || s <= 0) throw new ConfigError(`${name}: expected a duration such as 600, 15m, 12h or 30d`);
  return s;
}

function minMonitorInterval(r: Reader): number {
  const raw = r.optStr('DVS_MONITOR_MIN_INTERVAL');
  if (raw === null) return 86_400_000;
  const parsed = isoDurationMs(raw);
  if ('problem' in parsed) throw new ConfigError(`DVS_MONITOR_MIN_INTERVAL: ${parsed.problem}`);
  return parsed.ms;
}

/** Time a validation needs after its deadline to sign its certificate and commit it with the token. */
export const LEASE_MARGIN_MS = 2_000;

/**
 * A reservation must outlive the validation holding it: a shorter lease lets a retry take the token from under a
 * running validation, whose commit then fails.
 */
function checkLease(leaseSeconds: number, fullDeadlineMs: number): void {
  if (leaseSeconds * 1000 >= fullDeadlineMs + LEASE_MARGIN_MS) return;
  throw new ConfigError(
    `DVS_RESERVATION_LEASE (${leaseSeconds} s) must be longer than DVS_FULL_DEADLINE_MS (${fullDeadlineMs} ms) by at least ${LEASE_MARGIN_MS / 1000} s, or a second request could take a token while its validation still runs`,
  );
}

/** DVS_TRUST_PROXY: off, a hop count (`true` is one hop), or the proxies' addresses and CIDR ranges. */
function proxyTrust(r: Reader): ProxyTrust | null {
  const raw = trimOf(r.str('DVS_TRUST_PROXY', '0'), UNICODE_WHITESPACE);
  const header = r.str('DVS_TRUST_PROXY_HEADER', 'x-forwarded').toLowerCase();
  if (header !== 'x-forwarded' && header !== 'forwarded')
    throw new ConfigError(`DVS_TRUST_PROXY_HEADER: expected x-forwarded or forwarded, got "${header}"`);
  if (/^(0|false|no|off)$/i.test(raw)) return null;
  if (/^(true|yes|on)$/i.test(raw)) return { header, hops: 1, networks: [] };
  if (/^\d+$/.test(raw)) return { header, hops: r.int('DVS_TRUST_PROXY', 0, 1, 20), networks: [] };
  const networks = r.list('DVS_TRUST_PROXY').map((entry) => (entry.includes('/') ? entry : hostRange(entry)));
  networks.forEach((c) => checkCidr('DVS_TRUST_PROXY', c));
  return { header, hops: null, networks };
}

/** A bare address as the one-address range it stands for. */
function hostRange(address: string): string {
  return ipaddr.isValid(address) ? `${address}/${ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128}` : address;
}

function clientTimeouts(r: Reader): Config['clientTimeouts'] {
  return {
    handshakeMs: r.int('DVS_CLIENT_HANDSHAKE_TIMEOUT_MS', 10_000, 100, 600_000),
    headersMs: r.int('DVS_CLIENT_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    bodyMs: r.int('DVS_CLIENT_BODY_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}

/** Two scans per core and no more than a quarter of memory at 32 MiB a scan, unless DVS_MAX_SCANS says. */
function scanBound(r: Reader): Config['scans'] {
  const byMachine = Math.max(2, Math.min(os.cpus().length * 2, Math.floor(os.totalmem() / 4 / (32 * 1024 * 1024))));
  const limit = r.int('DVS_MAX_SCANS', byMachine, 1, 10_000);
  return {
    limit,
    reservedForFull: Math.max(1, Math.floor(limit / 4)),
    queueLength: r.int('DVS_SCAN_QUEUE', limit, 0, 100_000),
    maxWaitMs: r.int('DVS_SCAN_QUEUE_WAIT_MS', 5000, 0, 600_000),
    retryAfterSeconds: r.int('DVS_SCAN_RETRY_AFTER', 5, 1, 3600),
    perClient: r.int('DVS_SCANS_PER_CLIENT', 1, 1, 10_000),
  };
}

/** The probes' network: resolvers, the address policy's exceptions, ports, identity and limits. */
function netConfig(r: Reader, baseUrl: string): Config['net'] {
  const dnsServers = r.list('DVS_DNS_SERVERS');
  dnsServers.forEach((s) => checkHostPort('DVS_DNS_SERVERS', s));
  const allowNetworks = r.list('DVS_ALLOW_NETWORKS');
  allowNetworks.forEach((c) => checkCidr('DVS_ALLOW_NETWORKS', c));
  return {
    dnsServers,
    allowNetworks,
    extraCaFile: r.optStr('DVS_EXTRA_CA'),
    probeHttpPort: r.int('DVS_PROBE_HTTP_PORT', 80, 1, 65535),
    probeHttpsPort: r.int('DVS_PROBE_HTTPS_PORT', 443, 1, 65535),
    userAgent: r.str('DVS_USER_AGENT', `DomainValidationService/0.1 (+${baseUrl})`),
    agentSigning: r.bool('DVS_AGENT_SIGNING', true),
    limits: {
      maxBodyBytes: r.int('DVS_MAX_BODY_BYTES', 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
      maxHeaderBytes: r.int('DVS_MAX_HEADER_BYTES', 32 * 1024, 1024, 1024 * 1024),
      maxRedirects: r.int('DVS_MAX_REDIRECTS', 5, 0, 20),
      requestTimeoutMs: r.int('DVS_REQUEST_TIMEOUT_MS', 8000, 100, 120_000),
      dnsTimeoutMs: r.int('DVS_DNS_TIMEOUT_MS', 3000, 100, 60_000),
      maxConcurrentPerScan: r.int('DVS_MAX_CONCURRENCY', 12, 1, 64),
    },
  };
}

function paymentsConfig(r: Reader, fullDeadlineMs: number): Config['payments'] {
  const reservationLeaseSeconds = durationSeconds(r, 'DVS_RESERVATION_LEASE', 15 * 60);
  checkLease(reservationLeaseSeconds, fullDeadlineMs);
  return {
    priceCents: r.int('DVS_PRICE_CENTS', 4900, 0, 10_000_000),
    currency: r.str('DVS_CURRENCY', 'usd').toLowerCase(),
    tokenTtlSeconds: durationSeconds(r, 'DVS_TOKEN_TTL', 90 * 86400),
    reservationLeaseSeconds,
    testTokenCap: r.int('DVS_TEST_TOKEN_CAP', 1000, 1, 1_000_000),
    stripeSecretKey: r.optStr('DVS_STRIPE_SECRET_KEY'),
    stripeWebhookSecret: r.optStr('DVS_STRIPE_WEBHOOK_SECRET'),
    stripeApiBase: r.optStr('DVS_STRIPE_API_BASE'),
    reportRetentionSeconds:
      r.optStr('DVS_REPORT_RETENTION') === null ? null : durationSeconds(r, 'DVS_REPORT_RETENTION', 0),
  };
}

export function loadConfig(env: Source = process.env): Config {
  const r = new Reader({ ...fileSource(env), ...env });
  const port = r.int('DVS_PORT', 8443, 0, 65535);
  const dataDir = path.resolve(r.str('DVS_DATA_DIR', 'data'));
  const baseUrl = trimEndOf(r.str('DVS_BASE_URL', `https://localhost:${port}`), '/');
  if (!/^https:\/\/[^/]+$/.test(baseUrl))
    throw new ConfigError(`DVS_BASE_URL: "${baseUrl}" must be an https:// origin`);
  const certFile = r.optStr('DVS_TLS_CERT');
  const keyFile = r.optStr('DVS_TLS_KEY');
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError('DVS_TLS_CERT and DVS_TLS_KEY go together');
  const deadlines = {
    quickMs: r.int('DVS_QUICK_DEADLINE_MS', 20_000, 100, 600_000),
    fullMs: r.int('DVS_FULL_DEADLINE_MS', 90_000, 100, 1_800_000),
  };
  const payments = paymentsConfig(r, deadlines.fullMs);
  const databaseUrl = r.optStr('DVS_DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DVS_DATABASE_URL: only postgres:// URLs are supported (SQLite is the default)');
  }

  return {
    dataDir,
    cacheDir: path.resolve(r.str('DVS_CACHE_DIR', path.join(dataDir, 'cache'))),
    baseUrl,
    listen: {
      host: r.str('DVS_HOST', '0.0.0.0'),
      port,
      httpPort: r.optPort('DVS_HTTP_PORT'),
      metricsPort: r.optPort('DVS_METRICS_PORT'),
      // Metrics are for the operator's network: loopback unless they are sent elsewhere on purpose.
      metricsHost: r.str('DVS_METRICS_HOST', '127.0.0.1'),
    },
    tls: { certFile, keyFile },
    clientTimeouts: clientTimeouts(r),
    connections: {
      maxPipelined: r.int('DVS_CLIENT_PIPELINE_LIMIT', 16, 0, 1000),
      drainMs: r.int('DVS_CLIENT_DRAIN_TIMEOUT_MS', 30_000, 100, 600_000),
    },
    trustProxy: proxyTrust(r),
    mcpAllowedOrigins: mcpAllowedOrigins(r),
    net: netConfig(r, baseUrl),
    extraSuffixes: r.list('DVS_EXTRA_SUFFIXES').map((s) => trimOf(s.toLowerCase(), '.')),
    deadlines,
    scans: scanBound(r),
    quickScan: {
      cacheTtlSeconds: durationSeconds(r, 'DVS_QUICK_CACHE_TTL', 600),
      rateLimitPerMinute: r.int('DVS_QUICK_RATE_LIMIT', 30, 1, 100_000),
    },
    batches: {
      concurrency: r.int('DVS_BATCH_CONCURRENCY', 8, 0, 1_000),
      paceDelayMs: r.int('DVS_BATCH_PACE_DELAY_MS', 50, 0, 10_000),
      politePerSite: r.int('DVS_POLITE_PER_SITE', 2, 1, 1_000),
      politePerAddress: r.int('DVS_POLITE_PER_ADDRESS', 4, 1, 1_000),
      maintenanceSeconds: r.int('DVS_QUEUE_MAINTENANCE_S', 30, 1, 3_600),
      leaseMarginSeconds: r.int('DVS_LEASE_MARGIN_S', 5, 1, 600),
    },
    monitors: { minIntervalMs: minMonitorInterval(r) },
    webhooks: {
      retryDivisor: r.int('DVS_WEBHOOK_RETRY_DIVISOR', 1, 1, 1_000_000),
      secretOverlapSeconds: durationSeconds(r, 'DVS_WEBHOOK_SECRET_OVERLAP', 86_400),
    },
    callerIdentity: {
      enabled: r.bool('DVS_CALLER_SIGNATURES', true),
      directoryWaitMs: r.int('DVS_CALLER_DIRECTORY_WAIT_MS', 500, 0, 10_000),
      rateLimitPerMinute: r.int('DVS_VERIFIED_AGENT_RATE_LIMIT', 120, 1, 100_000),
    },
    databaseUrl,
    redisUrl: r.optStr('DVS_REDIS_URL'),
    payments,
    securityTxt: {
      contact: r.str('DVS_SECURITY_CONTACT', 'mailto:security@localhost'),
      policy: r.optStr('DVS_SECURITY_POLICY'),
    },
    certificates: {
      trustedIssuers: trustedIssuers(r, baseUrl),
      lifetimeSeconds: durationSeconds(r, 'DVS_CERTIFICATE_LIFETIME', 90 * 86400),
    },
    logLevel: r.str('DVS_LOG_LEVEL', 'info'),
  };
}
