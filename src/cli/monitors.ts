// `dvs monitors create | list | show | pause | resume | tokens | delete`: the monitor API from the command line,
// with the account's API key in DVS_API_KEY. Output is the API's own JSON, so it pipes into jq as it is.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { MonitorList } from '../lib/schema-types/api/monitor-list.ts';
import { accountClient, ApiFailure, listOf, type Client } from './account-client.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = `dvs monitors create <domain> --interval <ISO 8601 duration> --tokens <file|->   a monitor, paid by the tokens (one a line)
dvs monitors list [--limit N] [--after <cursor>]       a page of the account's monitors, oldest first; next is
                                                       the next page's --after (null on the last)
dvs monitors list --all                                every monitor, following next page by page
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

interface Options {
  tokens?: string | undefined;
  interval?: string | undefined;
  limit?: string | undefined;
  after?: string | undefined;
  all?: boolean | undefined;
}

const page = (client: Client, limit: string | undefined, after: string | null | undefined) => {
  const query = new URLSearchParams({ ...(limit ? { limit } : {}), ...(after ? { after } : {}) }).toString();
  return client.json<MonitorList>('GET', `/api/monitors${query ? `?${query}` : ''}`);
};

/** Every page, from the first (or `after`) to the one whose next is null. */
async function everyPage(client: Client, limit: string | undefined, after: string | undefined): Promise<MonitorList> {
  const monitors: MonitorList['monitors'] = [];
  let next: string | null | undefined = after;
  do {
    const got = await page(client, limit, next);
    monitors.push(...got.monitors);
    next = got.next;
  } while (next);
  return { monitors, next: null };
}

async function call(client: Client, sub: string, args: string[], opts: Options) {
  const { tokens, interval } = opts;
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
      return opts.all ? everyPage(client, opts.limit, opts.after) : page(client, opts.limit, opts.after);
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
      limit: { type: 'string' },
      after: { type: 'string' },
      all: { type: 'boolean' },
    },
  });
  const [sub, ...rest] = positionals;
  if (!sub) throw new UsageError(USAGE);
  const client = accountClient(io, values);
  try {
    io.stdout.write(JSON.stringify(await call(client, sub, rest, values)) + '\n');
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
