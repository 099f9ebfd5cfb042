// `dvs accounts create | list | revoke`: the operator's accounts for the batch API, in the ledger the service is
// configured with (DVS_DATABASE_URL, or SQLite in DVS_DATA_DIR), so they work while the service runs.
import { parseArgs } from 'node:util';
import { AccountError, type Account, type AccountLimits } from '../payments/accounts.ts';
import { openLedger } from '../payments/open-ledger.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = `dvs accounts create <name> [--domains-per-day N] [--max-batch N] [--concurrency N]
                        [--max-monitors N]
                                     make an account and print its API key (shown once)
dvs accounts list                    the accounts, their limits and today's use
dvs accounts revoke <name>           refuse the account's key from now on`;

const LIMIT_OPTIONS = {
  'domains-per-day': 'domainsPerDay',
  'max-batch': 'maxBatch',
  concurrency: 'concurrency',
  'max-monitors': 'maxMonitors',
} as const satisfies Record<string, keyof AccountLimits>;

const MAX_LIMIT = 10_000_000;

function limitsOf(values: Record<string, string | undefined>): Partial<AccountLimits> {
  const limits: Partial<AccountLimits> = {};
  for (const [option, field] of Object.entries(LIMIT_OPTIONS)) {
    const raw = values[option];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > MAX_LIMIT)
      throw new UsageError(`--${option}: expected a whole number from 1 to ${MAX_LIMIT}`);
    limits[field] = n;
  }
  return limits;
}

const row = (a: Account) =>
  [
    a.name.padEnd(24),
    (a.revokedAt ? 'revoked' : 'active').padEnd(8),
    `${a.usedToday}/${a.domainsPerDay}`.padEnd(18),
    String(a.maxBatch).padEnd(10),
    String(a.concurrency).padEnd(12),
    String(a.maxMonitors).padEnd(13),
    a.createdAt.toISOString(),
  ].join(' ');

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: Object.fromEntries(Object.keys(LIMIT_OPTIONS).map((o) => [o, { type: 'string' as const }])),
  });
  const [sub, name, ...rest] = positionals;
  const limits = limitsOf(values);
  if (rest.length > 0 || (sub !== 'create' && Object.keys(limits).length > 0)) throw new UsageError(USAGE);
  if ((sub === 'create' || sub === 'revoke') !== (name !== undefined)) throw new UsageError(USAGE);
  const ledger = await openLedger(io.config);
  try {
    const { accounts } = ledger;
    switch (sub) {
      case 'create': {
        const { account, key } = await accounts.create(name!, limits);
        io.stdout.write(`${key}\n`);
        io.stderr.write(
          `account ${account.name} in the ${ledger.backend} ledger: ${account.domainsPerDay} domains a day, ${account.maxBatch} per batch, ${account.concurrency} at once, ${account.maxMonitors} monitors. The key is shown only now; the ledger keeps its hash.\n`,
        );
        return 0;
      }
      case 'list': {
        io.stdout.write(
          `${'name'.padEnd(24)} ${'status'.padEnd(8)} ${'today'.padEnd(18)} ${'max-batch'.padEnd(10)} ${'concurrency'.padEnd(12)} ${'max-monitors'.padEnd(13)} created\n`,
        );
        for (const a of await accounts.list()) io.stdout.write(`${row(a)}\n`);
        return 0;
      }
      case 'revoke': {
        if (await accounts.revoke(name!)) {
          io.stderr.write(`account ${name} revoked: its key is refused from now on\n`);
          return 0;
        }
        io.stderr.write(`no active account named ${name}\n`);
        return 1;
      }
      default:
        throw new UsageError(USAGE);
    }
  } catch (err) {
    if (err instanceof AccountError) {
      io.stderr.write(`dvs accounts: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await ledger.close();
  }
}
