// `dvs keys jwks | anchor`: what the operator publishes for the signing key: the JWK set (also served at
// /.well-known/jwks.json) and the issuer's DNS anchor record.
import { parseArgs } from 'node:util';
import { issuerAnchorRecord, zoneLine } from '../signing/anchor.ts';
import { loadJwks } from '../signing/jwks.ts';
import { loadSigningKey } from '../signing/keys.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = 'dvs keys jwks | dvs keys anchor';

export async function run(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [action, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(USAGE);
  switch (action) {
    case 'jwks':
      io.stdout.write(JSON.stringify(await loadJwks(io.config.dataDir), null, 2) + '\n');
      return 0;
    case 'anchor':
      io.stdout.write(zoneLine(issuerAnchorRecord(await loadSigningKey(io.config.dataDir), io.config.baseUrl)) + '\n');
      return 0;
    default:
      throw new UsageError(USAGE);
  }
}
