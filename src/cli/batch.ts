// `dvs batch submit | status | results`: the batch API from the command line, against a running service
// (`--base`, else DVS_BASE_URL) with the account's API key in DVS_API_KEY. Output is the API's own: the batch id,
// the status as JSON, the results as NDJSON or CSV, so it pipes into jq or a spreadsheet as it is.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { accountClient, ApiFailure, listOf, type Client } from './account-client.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = `dvs batch submit <file|-> [--full --tokens <file>] [--wait]   submit domains (one per line); prints the batch id
dvs batch status <id>                                        the batch's status as JSON
dvs batch results <id> [--csv] [--after <cursor>]             its finished items, NDJSON (or CSV)
  --base <url>   the service (default DVS_BASE_URL); --ca <file> an extra CA to trust. The key: DVS_API_KEY.`;

const POLL_MS = 500;
const CLEAR_LINE = '\r\x1b[2K';
const BAR = 30;

interface Status {
  id: string;
  status: string;
  total: number;
  done: number;
  failed: number;
}

function progressLine(s: Status, tty: boolean): string {
  const finished = s.done + s.failed;
  const filled = s.total ? Math.round((finished / s.total) * BAR) : BAR;
  const text = `${s.id} ${s.status}: ${finished}/${s.total} (${s.failed} without a verdict)`;
  return tty ? `${CLEAR_LINE}[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${text}` : `${text}\n`;
}

async function waitFor(client: Client, id: string, io: CliIo): Promise<Status> {
  const tty = io.stderr.isTTY === true;
  let last = '';
  for (;;) {
    const s = await client.json<Status>('GET', `/api/batches/${id}`);
    const line = progressLine(s, tty);
    if (line !== last) io.stderr.write(line);
    last = line;
    if (s.status === 'done' || s.status === 'cancelled') {
      if (tty) io.stderr.write('\n');
      return s;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function results(client: Client, id: string, io: CliIo, csv: boolean, after?: string): Promise<void> {
  const query = after === undefined ? '' : `?after=${encodeURIComponent(after)}`;
  const res = await client.call('GET', `/api/batches/${id}/results${query}`, {
    accept: csv ? 'text/csv' : 'application/x-ndjson',
  });
  if (res.statusCode >= 400) throw new ApiFailure(res.statusCode, await res.body.text());
  // Streamed through: a large batch's results are never held whole.
  res.body.setEncoding('utf8');
  for await (const chunk of res.body) io.stdout.write(chunk as string);
}

async function submit(client: Client, args: { file: string; full: boolean; tokens?: string }, io: CliIo) {
  const stdin = () => readFileSync(0, 'utf8');
  const domains = listOf(args.file, stdin);
  let body: unknown;
  if (args.full) {
    if (!args.tokens) throw new UsageError('--full needs --tokens <file>: one payment token per domain, line by line');
    const tokens = listOf(args.tokens, stdin);
    if (tokens.length !== domains.length)
      throw new UsageError(`${domains.length} domains but ${tokens.length} tokens: give one token per domain`);
    body = { mode: 'full', items: domains.map((domain, i) => ({ domain, payment_token: tokens[i] })) };
  } else {
    if (args.tokens) throw new UsageError('--tokens goes with --full');
    body = { mode: 'quick', domains };
  }
  const accepted = await client.json<{
    id: string;
    total: number;
    rejected: { index: number; domain: string; error: string }[];
  }>('POST', '/api/batches', body);
  for (const r of accepted.rejected) io.stderr.write(`rejected line ${r.index + 1} (${r.domain}): ${r.error}\n`);
  io.stderr.write(`batch ${accepted.id}: ${accepted.total} domains accepted, ${accepted.rejected.length} rejected\n`);
  return accepted.id;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      full: { type: 'boolean' },
      tokens: { type: 'string' },
      wait: { type: 'boolean' },
      csv: { type: 'boolean' },
      after: { type: 'string' },
      base: { type: 'string' },
      ca: { type: 'string' },
    },
  });
  const [sub, target, ...rest] = positionals;
  if (!sub || !target || rest.length > 0) throw new UsageError(USAGE);
  const client = accountClient(io, values);
  try {
    switch (sub) {
      case 'submit': {
        const id = await submit(client, { file: target, full: values.full === true, tokens: values.tokens }, io);
        io.stdout.write(`${id}\n`);
        if (values.wait) {
          await waitFor(client, id, io);
          await results(client, id, io, values.csv === true);
        }
        return 0;
      }
      case 'status':
        io.stdout.write(JSON.stringify(await client.json('GET', `/api/batches/${encodeURIComponent(target)}`)) + '\n');
        return 0;
      case 'results':
        await results(client, encodeURIComponent(target), io, values.csv === true, values.after);
        return 0;
      default:
        throw new UsageError(USAGE);
    }
  } catch (err) {
    if (err instanceof ApiFailure) {
      io.stderr.write(`dvs batch ${sub}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await client.close();
  }
}
