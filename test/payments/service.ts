// The whole service with its real payments (ledger, checkout) against the fixture internet, in this process or
// as a child `dvs serve` process, and a client that speaks both REST and MCP to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { createLogger } from '../../src/lib/log.ts';
import { openPayments, type Payments } from '../../src/payments/index.ts';
import type { Ledger } from '../../src/payments/ledger.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { DEFAULT_SITES_DIR, startWorld, type World } from '../world/index.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.join(HERE, '..', '..');

/** The world with `good` and the payments tests' own sites (a slow one). */
export async function startPaymentsWorld(): Promise<World & { cleanup(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-payments-sites-'));
  symlinkSync(path.join(DEFAULT_SITES_DIR, 'good'), path.join(dir, 'good'));
  symlinkSync(path.join(HERE, 'sites', 'slow-payments'), path.join(dir, 'slow-payments'));
  const world = await startWorld({ sitesDir: dir });
  return Object.assign(world, {
    async cleanup() {
      await world.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

export interface Reply {
  status: number;
  text: string;
}

/** What one full validation gave back over either surface: the certificate text, or the error. */
export interface Outcome {
  surface: 'rest' | 'mcp';
  ok: boolean;
  status: number;
  /** The certificate exactly as the log holds it (content[1]). */
  certificate: string | null;
  /** Its inclusion proof, beside it (content[2]), when the service keeps a log. */
  proof?: string;
  error: string | null;
}

/** The outcome of a certificate answer: the leaf, and the proof beside it. */
const issued = (surface: Outcome['surface'], status: number, content: { text: string }[]): Outcome => ({
  surface,
  ok: true,
  status,
  certificate: content[1]!.text,
  ...(content[2] ? { proof: content[2].text } : {}),
  error: null,
});

export class ServiceClient {
  readonly agent: Agent;

  constructor(
    readonly url: string,
    caPem: string,
  ) {
    this.agent = new Agent({ connect: { ca: caPem, servername: 'localhost' } });
  }

  async call(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const res = await request(this.url + pathname, {
      method: method as 'POST',
      dispatcher: this.agent,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, text: await res.body.text() };
  }

  /** A GET with the response headers, for tests of what caches are told. */
  async get(pathname: string): Promise<Reply & { headers: Record<string, string | string[] | undefined> }> {
    const res = await request(this.url + pathname, { dispatcher: this.agent });
    return { status: res.statusCode, text: await res.body.text(), headers: res.headers };
  }

  async rest(domain: string, token: string): Promise<Outcome> {
    const res = await this.call('POST', '/api/fullvalidation', { domain, payment_token: token });
    if (res.status !== 200)
      return {
        surface: 'rest',
        ok: false,
        status: res.status,
        certificate: null,
        error: (JSON.parse(res.text) as { error: string }).error,
      };
    const result = JSON.parse(res.text) as { content: { text: string }[] };
    return issued('rest', 200, result.content);
  }

  /** A JSON-RPC tools/call straight to the stateless MCP endpoint, as the checkout page shows. */
  async mcp(domain: string, token: string, id = 1): Promise<Outcome> {
    const res = await this.call(
      'POST',
      '/mcp',
      {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'service_fullvalidation', arguments: { domain, payment_token: token } },
      },
      { accept: 'application/json, text/event-stream' },
    );
    const reply = JSON.parse(res.text) as {
      result?: { content: { text: string }[]; isError?: boolean };
      error?: { message: string };
    };
    if (!reply.result || reply.result.isError) {
      return {
        surface: 'mcp',
        ok: false,
        status: res.status,
        certificate: null,
        error: reply.error?.message ?? reply.result?.content[0]?.text ?? res.text,
      };
    }
    return issued('mcp', res.status, reply.result.content);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Collects the service's JSON log lines, to count what it did. */
export class LogLines extends Writable {
  readonly lines: { msg?: string; [k: string]: unknown }[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) this.lines.push(JSON.parse(line) as { msg?: string });
    done();
  }
  count(msg: string): number {
    return this.lines.filter((l) => l.msg === msg).length;
  }
}

export interface InProcessService {
  config: Config;
  payments: Payments;
  service: RunningService;
  client: ServiceClient;
  log: LogLines;
  stop(): Promise<void>;
}

export function serviceEnv(world: World, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...world.env,
    DVS_PORT: '0',
    DVS_HOST: '127.0.0.1',
    DVS_DATA_DIR: dataDir,
    DVS_CACHE_DIR: SUITE_CACHE_DIR,
    DVS_LOG_LEVEL: 'info',
    ...extra,
  };
}

export async function startInProcess(
  world: World,
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<InProcessService> {
  const config = loadConfig(serviceEnv(world, dataDir, extra));
  const log = new LogLines();
  const logger = createLogger(config, log);
  const payments = await openPayments(config, logger);
  const service = await startService(config, { log: logger, payments });
  const client = new ServiceClient(
    `https://127.0.0.1:${service.port}`,
    readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8'),
  );
  return {
    config,
    payments,
    service,
    client,
    log,
    async stop() {
      await client.close();
      await service.close();
    },
  };
}

export interface ChildService {
  child: ChildProcess;
  client: ServiceClient;
  /** The child's log lines so far (JSON, from its stderr). */
  logText(): string;
  /** SIGTERM and wait (graceful); `kill('SIGKILL')` on `child` for a crash. */
  stop(): Promise<void>;
}

/** `node bin/dvs.js serve` in its own process, with the given environment. */
export async function startChild(env: Record<string, string>, dataDir: string): Promise<ChildService> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'dvs.js'), 'serve'], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /Domain Validation Service on https:\/\/localhost:(\d+)/.exec(stdout);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`dvs serve exited with ${code} before listening:\n${stderr.slice(-2000)}`)),
    );
  });
  const client = new ServiceClient(
    `https://127.0.0.1:${port}`,
    readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8'),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    client,
    logText: () => stderr,
    async stop() {
      await client.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

export async function issueOne(ledger: Ledger): Promise<string> {
  const [issued] = await ledger.issue({ source: 'test' });
  return issued!.token;
}
