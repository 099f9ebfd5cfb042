// `dvs tokens issue | status`: operators mint tokens without the checkout (vouchers, support, tests) and look
// at one, in the ledger the service is configured with (DVS_DATABASE_URL, or SQLite in DVS_DATA_DIR).
import { parseArgs } from 'node:util';
import { parseDuration } from '../lib/config.ts';
import { openLedger } from '../payments/open-ledger.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = `dvs tokens issue [--count N] [--expires <duration, e.g. 30d>]   print N new tokens, one per line
dvs tokens status <token>                                       show whether a token is issued, reserved or redeemed`;

const MAX_COUNT = 10_000;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { count: { type: 'string' }, expires: { type: 'string' } },
  });
  const sub = positionals[0];
  if (sub === 'issue') {
    if (positionals.length > 1) throw new UsageError(USAGE);
    const count = values.count === undefined ? 1 : Number(values.count);
    if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
      throw new UsageError(`--count: expected a whole number from 1 to ${MAX_COUNT}`);
    const ttlSeconds = values.expires === undefined ? undefined : parseDuration(values.expires);
    if (ttlSeconds === null || ttlSeconds === 0)
      throw new UsageError('--expires: expected a duration such as 3600, 90m, 12h or 30d');
    const ledger = await openLedger(io.config);
    try {
      const issued = await ledger.issue({ count, ttlSeconds, source: 'cli' });
      for (const t of issued) io.stdout.write(`${t.token}\n`);
      io.stderr.write(
        `${issued.length} ${ledger.mode}-mode token(s) in the ${ledger.backend} ledger, valid until ${issued[0]!.expiresAt.toISOString()}\n`,
      );
    } finally {
      await ledger.close();
    }
    return 0;
  }
  if (sub === 'status') {
    const token = positionals[1];
    if (!token || positionals.length > 2 || values.count !== undefined || values.expires !== undefined)
      throw new UsageError(USAGE);
    const ledger = await openLedger(io.config);
    try {
      const status = await ledger.status(token);
      if (!status) {
        io.stderr.write(`unknown token: the ${ledger.backend} ledger has never issued it\n`);
        return 1;
      }
      const lines: [string, string | null][] = [
        ['state', status.state + (status.expired ? ' (expired)' : '')],
        ['domain', status.domain],
        ['certificate', status.certificateId],
        ['reserved until', status.reservedUntil?.toISOString() ?? null],
        ['issued', status.createdAt.toISOString()],
        ['expires', status.expiresAt.toISOString()],
        ['source', status.source],
      ];
      for (const [name, value] of lines) if (value !== null) io.stdout.write(`${`${name}:`.padEnd(16)}${value}\n`);
    } finally {
      await ledger.close();
    }
    return 0;
  }
  throw new UsageError(USAGE);
}
