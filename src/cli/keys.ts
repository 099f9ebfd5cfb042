// `dvs keys jwks | anchor | rotate`: what the operator publishes for the signing keys (the JWK set, also served
// at /.well-known/jwks.json, and the issuer's DNS anchor records: the current key and every retired one, so
// certificates signed before a rotation keep their anchor) and the rotation itself.
import { parseArgs } from 'node:util';
import { issuerAnchorRecord, zoneLine } from '../signing/anchor.ts';
import { loadJwks, loadRetiredKeys, thumbprintOf } from '../signing/jwks.ts';
import { loadSigningKey, rotateSigningKey } from '../signing/keys.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = 'dvs keys jwks | dvs keys anchor | dvs keys rotate';

async function anchorLines(io: CliIo): Promise<string[]> {
  const current = await loadSigningKey(io.config.dataDir);
  const retired = await Promise.all(
    loadRetiredKeys(io.config.dataDir).map(async (jwk) => ({ kid: jwk.kid, thumbprint: await thumbprintOf(jwk) })),
  );
  return [current, ...retired].map((key) => zoneLine(issuerAnchorRecord(key, io.config.baseUrl)));
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [action, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(USAGE);
  switch (action) {
    case 'jwks':
      io.stdout.write(JSON.stringify(await loadJwks(io.config.dataDir), null, 2) + '\n');
      return 0;
    case 'anchor':
      io.stdout.write((await anchorLines(io)).join('\n') + '\n');
      return 0;
    case 'rotate': {
      const { retired, current } = await rotateSigningKey(io.config.dataDir);
      io.stdout.write(
        [
          `retired  ${retired.kid} (stays in the JWK set: certificates it signed keep verifying)`,
          `current  ${current.kid} signs certificates, responses and tree heads from now on (a running service picks it up at its next signature; no restart)`,
          '',
          'Publish these issuer anchor records (current first):',
          ...(await anchorLines(io)).map((l) => `  ${l}`),
          '',
        ].join('\n'),
      );
      return 0;
    }
    default:
      throw new UsageError(USAGE);
  }
}
