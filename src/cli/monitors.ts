// `dvs monitors create | list | show | pause | resume | tokens | delete`: the monitor API from the command line,
// with the account's API key in DVS_API_KEY. Output is the API's own JSON, so it pipes into jq as it is.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { accountClient, ApiFailure, listOf, type Client } from './account-client.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = `dvs monitors create <domain> --interval <ISO 8601 duration> --tokens <file|->   a monitor, paid by the tokens (one a line)
dvs monitors list                                      the account's monitors
dvs monitors show <id>                                 one monitor: schedule, credits, certificate, last run
dvs monitors pause <id> | resume <id>                  stop or restart its runs
dvs monitors interval <id> <ISO 8601 duration>         change its interval
dvs monitors tokens <id> --tokens <file|->             add prepaid runs (a monitor out of tokens resumes)
dvs monitors delete <id>                               delete it; its unspent tokens are given back
  --base <url>   the service (default DVS_BASE_URL); --ca <file> an extra CA to trust. The key: DVS_API_KEY.`;

const stdin = () => readFileSync(0, 'utf8');

function tokensOf(file: string | undefined): string[] {
  if (!file) throw new UsageError('--tokens <file|-> is required: one payment token a line');
  return listOf(file, stdin);
}

const path = (id: string, rest = '') => `/api/monitors/${encodeURIComponent(id)}${rest}`;

async function call(client: Client, sub: string, args: string[], tokens: string | undefined, interval?: string) {
  const [target, extra] = args;
  const one = () => {
    if (!target || args.length !== 1) throw new UsageError(USAGE);
    return target;
  };
  switch (sub) {
    case 'create':
      if (!interval) throw new UsageError('--interval is required, e.g. P1D');
      return client.json('POST', '/api/monitors', {
        domain: one(),
        interval,
        payment_tokens: tokensOf(tokens),
      });
    case 'list':
      if (args.length !== 0) throw new UsageError(USAGE);
      return client.json('GET', '/api/monitors');
    case 'show':
      return client.json('GET', path(one()));
    case 'pause':
    case 'resume':
      return client.json('PATCH', path(one()), { paused: sub === 'pause' });
    case 'interval':
      if (!target || !extra || args.length !== 2) throw new UsageError(USAGE);
      return client.json('PATCH', path(target), { interval: extra });
    case 'tokens':
      return client.json('POST', path(one(), '/tokens'), { payment_tokens: tokensOf(tokens) });
    case 'delete': {
      const res = await client.call('DELETE', path(one()));
      const text = await res.body.text();
      if (res.statusCode >= 400) throw new ApiFailure(res.statusCode, text);
      return { deleted: target };
    }
    default:
      throw new UsageError(USAGE);
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      interval: { type: 'string' },
      tokens: { type: 'string' },
      base: { type: 'string' },
      ca: { type: 'string' },
    },
  });
  const [sub, ...rest] = positionals;
  if (!sub) throw new UsageError(USAGE);
  const client = accountClient(io, values);
  try {
    io.stdout.write(JSON.stringify(await call(client, sub, rest, values.tokens, values.interval)) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof ApiFailure) {
      io.stderr.write(`dvs monitors ${sub}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await client.close();
  }
}
