// `dvs verify <certificate.json> [--jwks <file|https-url>] [--dns]`: checks a certificate and prints each
// check with ✓ or ✗; exits 1 when any fails. Keys come from --jwks, or else from the certificate's own
// issuer jwks_url (over https; the `issuer` check then makes sure that URL is on the issuer's origin).
import { parseArgs } from 'node:util';
import { createNet } from '../net/index.ts';
import { fetchJwks } from '../signing/fetch-jwks.ts';
import { parseJwks, type Jwks } from '../signing/jwks.ts';
import { dnsTxtLookup } from '../signing/txt-lookup.ts';
import { verifyCertificate } from '../signing/verify.ts';
import { readJsonFile, UsageError, type CliIo } from './io.ts';

export const USAGE = 'dvs verify <certificate.json> [--jwks <file|https-url>] [--dns]';

/** Where the keys come from: the --jwks argument, or the URL the certificate names. */
function jwksSource(cert: unknown, option: string | undefined): string | null {
  if (option !== undefined) return option;
  const url = (cert as { payload?: { issuer?: { jwks_url?: unknown } } } | null)?.payload?.issuer?.jwks_url;
  return typeof url === 'string' ? url : null;
}

async function loadKeys(source: string, io: CliIo): Promise<Jwks> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    return fetchJwks(source, createNet(io.config));
  }
  return parseJwks(readJsonFile(source), source);
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { jwks: { type: 'string' }, dns: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const file = positionals[0]!;
  const cert = readJsonFile(file);
  const source = jwksSource(cert, values.jwks);
  if (source === null) {
    io.stdout.write(`✗ jwks: ${file} names no issuer jwks_url; pass --jwks\n`);
    return 1;
  }
  let jwks: Jwks;
  try {
    jwks = await loadKeys(source, io);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    io.stdout.write(`✗ jwks: ${(err as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`keys from ${source}\n`);
  const dns = values.dns
    ? dnsTxtLookup({ servers: io.config.net.dnsServers, timeoutMs: io.config.net.limits.dnsTimeoutMs })
    : undefined;
  const checks = await verifyCertificate(cert, { jwks, dns });
  for (const c of checks) io.stdout.write(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}\n`);
  const failed = checks.filter((c) => !c.ok).length;
  io.stdout.write(
    failed === 0
      ? `valid: ${checks.length} checks passed\n`
      : `NOT valid: ${failed} of ${checks.length} checks failed\n`,
  );
  return failed === 0 ? 0 : 1;
}
