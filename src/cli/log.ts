// `dvs log sth` prints the issuer's current signed tree head (save it to audit later); `dvs log audit <old>
// <new>` checks two saved heads: both signed by the issuer, and the newer log extends the older one (the
// consistency proof the issuer gives between their sizes). The issuer is the one the verifier trusts.
import { parseArgs } from 'node:util';
import type { Config } from '../lib/config.ts';
import { JWKS_PATH } from '../signing/certificate.ts';
import { fetchJwks } from '../signing/fetch-jwks.ts';
import type { IssuerClient } from '../signing/issuer-client.ts';
import type { Jwks } from '../signing/jwks.ts';
import { auditHeads } from '../signing/log-checks.ts';
import { verifyTreeHead } from '../signing/tree-head.ts';
import { UsageError, type CliIo } from './io.ts';
import { issuerClientFor, keysFromOption, readStrictFile, trustedIssuers } from './verify.ts';

export const USAGE =
  'dvs log sth [--issuer <https origin>] | dvs log audit <old-sth.json> <new-sth.json> [--issuer <https origin>] [--jwks <file|https-url>]';

/** A tree head is a few hundred bytes. */
const MAX_HEAD_BYTES = 16 * 1024;

function oneIssuer(option: string[] | undefined, config: Config): string {
  const trusted = trustedIssuers(option, config);
  if (trusted.length !== 1)
    throw new UsageError(`say which issuer's log with --issuer (trusted: ${trusted.join(', ') || 'none'})`);
  return trusted[0]!;
}

function readHead(file: string): unknown {
  const read = readStrictFile(file);
  if ('duplicate' in read) throw new UsageError(read.duplicate);
  return read.value;
}

async function keys(option: string | undefined, client: IssuerClient, config: Config): Promise<Jwks> {
  return option === undefined ? fetchJwks(client, JWKS_PATH) : keysFromOption(option, config);
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { issuer: { type: 'string', multiple: true }, jwks: { type: 'string' } },
  });
  const [action, ...files] = positionals;
  if (!(action === 'sth' && files.length === 0) && !(action === 'audit' && files.length === 2))
    throw new UsageError(USAGE);
  const origin = oneIssuer(values.issuer, io.config);
  const client = issuerClientFor(origin, io.config);
  try {
    const jwks = await keys(values.jwks, client, io.config);
    if (action === 'sth') {
      const head = verifyTreeHead(await client.getJson('/log/sth', MAX_HEAD_BYTES), jwks);
      if (!head.ok) {
        io.stderr.write(`dvs log: ${origin}/log/sth: ${head.reason}\n`);
        return 1;
      }
      io.stdout.write(JSON.stringify(head.head) + '\n');
      return 0;
    }
    const result = await auditHeads(client, readHead(files[0]!), readHead(files[1]!), jwks);
    io.stdout.write(`log of ${origin}\n${result.lines.join('\n')}\n${result.ok ? 'consistent' : 'NOT consistent'}\n`);
    return result.ok ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    io.stderr.write(`dvs log: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
