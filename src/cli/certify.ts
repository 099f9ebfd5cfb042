// `dvs certify <observations.json> --out <cert.json>`: judges saved evidence with the full tier and signs the
// result with the data directory's signing key, offline. Prints the DNS record the domain owner publishes.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { evaluate } from '../engine/index.ts';
import { loadRunRuleset } from '../catalogue/compiled-ruleset.ts';
import { zoneLine } from '../signing/anchor.ts';
import { certificateText, issueCertificate } from '../signing/certificate.ts';
import { loadSigningKey } from '../signing/keys.ts';
import type { Certificate } from '../signing/payload.ts';
import { readObservations } from './evaluate.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = 'dvs certify <observations.json> --out <certificate.json>';

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length !== 1 || !values.out) throw new UsageError(USAGE);
  const observations = readObservations(positionals[0]!);
  // The checked ruleset the service signs with, not a check of every rule file at each run (dvs rules check).
  const ruleset = loadRunRuleset(io.config.cacheDir);
  // A signature vouches for the evidence too (its digest is in the payload): only sign what the schemas accept.
  const invalid = ruleset.schemas.validateDocument(observations, 'complete');
  if (invalid) {
    io.stderr.write(`dvs certify: not signing, the observations do not match the schemas: ${invalid}\n`);
    return 1;
  }
  const report = evaluate(observations, ruleset, 'full');
  const key = await loadSigningKey(io.config.dataDir);
  let certificate: Certificate;
  try {
    certificate = issueCertificate({
      report,
      issuer: { baseUrl: io.config.baseUrl },
      key,
      validity: { issuedAt: new Date(), lifetimeSeconds: io.config.certificates.lifetimeSeconds },
    });
  } catch (err) {
    io.stderr.write(`dvs certify: not signing: ${(err as Error).message}\n`);
    return 1;
  }
  const { payload } = certificate;
  writeFileSync(values.out, certificateText(certificate));
  io.stdout.write(
    [
      `certificate ${payload.id} for ${payload.domain}`,
      `verdict     ${payload.verdict} (score ${payload.score}/100, ${payload.results.length} rules)`,
      `valid       ${payload.issued_at} to ${payload.expires_at}`,
      `written to  ${values.out}`,
      '',
      "To anchor it, publish this DNS record in the domain's zone:",
      `  ${zoneLine(payload.anchor)}`,
      '',
    ].join('\n'),
  );
  return 0;
}
