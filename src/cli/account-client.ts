// The account API (batches, monitors) from the command line: calls with the account's API key (DVS_API_KEY) to
// a running service (`--base`, else DVS_BASE_URL), trusting the system's roots, `--ca`, and the local service's
// self-signed certificate when it is here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { UNICODE_WHITESPACE, trimEndOf, trimOf } from '../lib/trim.ts';
import { UsageError, type CliIo } from './io.ts';

/** A file's text; a file that cannot be read is the caller's mistake. */
export function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}

export /** Lines of a list file: blank lines and # comments are skipped. */
function listOf(file: string, stdin: () => string): string[] {
  const text = file === '-' ? stdin() : readText(file);
  return text
    .split(/\r?\n/)
    .map((l) => trimOf(l, UNICODE_WHITESPACE))
    .filter((l) => l !== '' && !l.startsWith('#'));
}

export class Client {
  private readonly agent: Agent;

  constructor(
    private readonly base: string,
    private readonly key: string,
    ca: string[],
  ) {
    this.agent = new Agent({ connect: { ca: [...rootCertificates, ...ca] } });
  }

  async call(method: string, pathname: string, opts: { body?: unknown; accept?: string } = {}) {
    const res = await request(this.base + pathname, {
      method: method as 'GET',
      dispatcher: this.agent,
      headers: {
        authorization: `Bearer ${this.key}`,
        ...(opts.accept ? { accept: opts.accept } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return res;
  }

  async json<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    const res = await this.call(method, pathname, { body });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new ApiFailure(res.statusCode, text);
    return JSON.parse(text) as T;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    let message = body;
    try {
      message = (JSON.parse(body) as { error?: string }).error ?? body;
    } catch {
      // Not the Error body: the text as it came.
    }
    super(`${status}: ${message}`);
  }
}

/** The client of the account whose key is in DVS_API_KEY. */
export function accountClient(io: CliIo, values: { base?: string; ca?: string }): Client {
  const key = process.env.DVS_API_KEY;
  if (!key) throw new UsageError('set DVS_API_KEY to the account API key (dvs accounts create prints it)');
  const base = trimEndOf(values.base ?? io.config.baseUrl, '/');
  // The service's own self-signed certificate (npm start on this machine) is trusted as well, when it is here.
  const own = path.join(io.config.dataDir, 'tls', 'localhost-cert.pem');
  const ca = [values.ca, existsSync(own) ? own : undefined].filter((f): f is string => !!f).map(readText);
  return new Client(base, key, ca);
}
