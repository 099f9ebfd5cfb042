// `dvs verify <certificate.json>`: checks a certificate and prints each check with ✓ or ✗; exits 1 when any
// fails. Inclusion in the issuer's transparency log is checked offline from the proof the file carries (a Full
// Validation's answer has one) and, online, against the issuer's current signed tree head. The verifier decides whom it trusts (--issuer, DVS_TRUSTED_ISSUERS, or the service's own base URL),
// and fetches keys only from a trusted issuer's JWK set URL, unless --jwks hands them over.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadRunRuleset } from '../catalogue/compiled-ruleset.ts';
import { originProblem } from '../lib/https-origin.ts';
import { parseStrictJson, StrictJsonError } from '../lib/strict-json.ts';
import { loadTrustStore } from '../net/trust-store.ts';
import { localCertificateFile } from '../server/localhost-certificate.ts';
import { JWKS_PATH } from '../signing/certificate.ts';
import { fetchJwks } from '../signing/fetch-jwks.ts';
import { IssuerClient } from '../signing/issuer-client.ts';
import { parseJwks, type Jwks } from '../signing/jwks.ts';
import { dnsTxtLookup } from '../signing/txt-lookup.ts';
import type { Certificate } from '../signing/payload.ts';
import { onlineInclusionCheck } from '../signing/log-checks.ts';
import { statusCheck } from '../signing/status-check.ts';
import { verifyCertificate, type Check } from '../signing/verify.ts';
import type { Config } from '../lib/config.ts';
import { UsageError, type CliIo } from './io.ts';
import { reevaluationChecks } from './reevaluate.ts';

export const USAGE =
  'dvs verify <certificate.json> [--issuer <https origin>]... [--jwks <file|https-url>] [--dns] [--reevaluate] [--at <time>] [--offline]';

/** A file the verifier relies on, parsed strictly: a duplicate member is refused, not resolved. */
export function readStrictFile(file: string): { value: unknown } | { duplicate: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
  try {
    return { value: parseStrictJson(text) };
  } catch (err) {
    if (err instanceof StrictJsonError && err.kind === 'duplicate') return { duplicate: `${file}: ${err.message}` };
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}

export function trustedIssuers(option: string[] | undefined, config: Config): string[] {
  if (option === undefined || option.length === 0) return config.certificates.trustedIssuers;
  for (const issuer of option) {
    const problem = originProblem(issuer);
    if (problem) throw new UsageError(`--issuer ${issuer}: not a plain https origin: ${problem}`);
  }
  return option;
}

/** The default roots, DVS_EXTRA_CA, and the local service's own certificate when `npm start` made one. */
export function issuerClientFor(origin: string, config: Config): IssuerClient {
  const ca = [...loadTrustStore(config.net.extraCaFile)];
  const local = localCertificateFile(config.dataDir);
  if (existsSync(local)) ca.push(readFileSync(local, 'utf8'));
  return new IssuerClient(origin, {
    ca,
    dnsServers: config.net.dnsServers,
    timeoutMs: config.net.limits.requestTimeoutMs,
  });
}

/** The moment to check validity at: now, or what --at asks about (an RFC 3339 time or a date). */
function moment(option: string | undefined): Date {
  if (option === undefined) return new Date();
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(option))
    throw new UsageError(`--at ${option}: expected a date (2026-05-01) or an RFC 3339 time (2026-05-01T12:00:00Z)`);
  const [y, m, d] = option.slice(0, 10).split('-').map(Number) as [number, number, number];
  const at = new Date(option);
  // Date() rolls 2026-02-31 over into March; a calendar date must exist as written.
  if (Number.isNaN(at.getTime()) || new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d)
    throw new UsageError(`--at ${option}: not a real date`);
  return at;
}

const issuerOf = (cert: unknown): unknown =>
  (cert as { payload?: { issuer?: { base_url?: unknown } } } | null)?.payload?.issuer?.base_url;

/** The key set from --jwks: a file, or an https URL the user chose. */
export async function keysFromOption(option: string, config: Config): Promise<Jwks> {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(option)) {
    const read = readStrictFile(option);
    if ('duplicate' in read) throw new Error(read.duplicate);
    return parseJwks(read.value, option);
  }
  const url = new URL(option);
  if (url.protocol !== 'https:') throw new Error(`${option}: a JWK set is only fetched over https`);
  const client = issuerClientFor(url.origin, config);
  try {
    return await fetchJwks(client, url.pathname + url.search);
  } finally {
    await client.close();
  }
}

/** A client for the certificate's issuer, only when the verifier trusts it. */
function trustedIssuerClient(cert: unknown, trusted: string[], config: Config): IssuerClient {
  const issuer = issuerOf(cert);
  if (typeof issuer !== 'string') throw new Error('the certificate names no issuer; pass --jwks');
  if (!trusted.includes(issuer))
    throw new Error(
      `not fetched: ${issuer} is not a trusted issuer (trusted: ${trusted.join(', ')}); trust it with --issuer or DVS_TRUSTED_ISSUERS`,
    );
  return issuerClientFor(issuer, config);
}

const idOf = (cert: unknown): unknown => (cert as { payload?: { id?: unknown } } | null)?.payload?.id;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      jwks: { type: 'string' },
      dns: { type: 'boolean' },
      issuer: { type: 'string', multiple: true },
      at: { type: 'string' },
      offline: { type: 'boolean' },
      reevaluate: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const at = moment(values.at);
  const file = positionals[0]!;
  const trusted = trustedIssuers(values.issuer, io.config);
  const read = readStrictFile(file);
  if ('duplicate' in read) {
    io.stdout.write(`✗ structure: ${read.duplicate}\nNOT valid: the certificate is not strict JSON\n`);
    return 1;
  }
  const cert = read.value;
  let jwks: Jwks;
  // Online unless --jwks hands the keys over or --offline asks not to: the trusted issuer's client then also
  // answers the status check.
  let issuer: IssuerClient | null = null;
  try {
    if (values.jwks !== undefined) {
      jwks = await keysFromOption(values.jwks, io.config);
    } else {
      issuer = trustedIssuerClient(cert, trusted, io.config);
      jwks = await fetchJwks(issuer, JWKS_PATH);
    }
  } catch (err) {
    await issuer?.close();
    if (err instanceof UsageError) throw err;
    io.stdout.write(`✗ jwks: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    io.stdout.write(`keys from ${values.jwks ?? `${String(issuerOf(cert))}${JWKS_PATH}`}\n`);
    const dns = values.dns
      ? dnsTxtLookup({ servers: io.config.net.dnsServers, timeoutMs: io.config.net.limits.dnsTimeoutMs })
      : undefined;
    const checks = await verifyCertificate(cert, { jwks, dns, trustedIssuers: trusted, at });
    if (issuer && !values.offline && checks[0]?.ok) {
      checks.push(await statusCheck(issuer, String(idOf(cert)), at, values.at !== undefined));
      // The proof the file carries was checked offline; online, the issuer's current head must include it too.
      checks.push(await onlineInclusionCheck(issuer, cert as Certificate, jwks));
    }
    if (values.reevaluate) {
      if (!issuer || values.offline)
        throw new UsageError('--reevaluate fetches the evidence from the issuer: drop --jwks and --offline');
      // The checked ruleset from the cache, as a scan loads it: checking every rule again took seconds.
      const ruleset = () => loadRunRuleset(io.config.cacheDir);
      if (checks[0]?.ok) checks.push(...(await reevaluationChecks(issuer, cert as Certificate, ruleset)));
    }
    return report(checks, io);
  } finally {
    await issuer?.close();
  }
}

function report(checks: Check[], io: CliIo): number {
  for (const c of checks) io.stdout.write(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}\n`);
  const failed = checks.filter((c) => !c.ok).length;
  io.stdout.write(
    failed === 0
      ? `valid: ${checks.length} checks passed\n`
      : `NOT valid: ${failed} of ${checks.length} checks failed\n`,
  );
  return failed === 0 ? 0 : 1;
}
