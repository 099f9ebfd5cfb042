// Starting the service for end-to-end tests: a small fixture internet (good, nxdomain and the API tests' own
// sites), the service on HTTPS on 127.0.0.1 with an in-memory payment gate, and an HTTPS client that trusts
// the service's self-signed certificate.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { createLogger } from '../../src/lib/log.ts';
import { openPayments } from '../../src/payments/index.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { externalSite } from '../world/external-site.ts';
import { DEFAULT_SITES_DIR, startWorld, type World, type WorldOptions } from '../world/index.ts';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { MemoryGate } from './memory-gate.ts';

const API_SITES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'api', 'sites');

/** The world with the standard sites named, plus every site under test/api/sites. */
export async function startApiWorld(
  standard: string[] = ['good', 'nxdomain'],
  opts: WorldOptions = {},
): Promise<World & { removeSites(): void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-api-sites-'));
  for (const name of standard) symlinkSync(path.join(DEFAULT_SITES_DIR, name), path.join(dir, name));
  for (const name of readdirSync(API_SITES)) symlinkSync(path.join(API_SITES, name), path.join(dir, name));
  const world = await startWorld({ ...opts, sitesDir: dir });
  return Object.assign(world, { removeSites: () => rmSync(dir, { recursive: true, force: true }) });
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json(): unknown;
}

export interface TestService {
  service: RunningService;
  config: Config;
  /** The in-memory gate (unused when the real payments side runs). */
  gate: MemoryGate;
  /** A payment token the service takes: from the ledger with the real payments side, else from the gate. */
  token(): Promise<string>;
  dataDir: string;
  /** The service's certificate (self-signed for localhost), to trust. */
  caPem: string;
  /** https://127.0.0.1:port */
  url: string;
  agent: Agent;
  call(
    method: string,
    pathname: string,
    init?: { body?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  post(pathname: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  /** The real payments side (SQLite ledger in the data dir, test-mode checkout) instead of the in-memory gate. */
  realPayments?: boolean;
  /** The CA to trust, the name to expect and the address to call, when the service has its own certificate. */
  tls?: { caPem: string; servername: string; host: string };
}

export async function startTestService(
  env: Record<string, string>,
  opts: TestServiceOptions = {},
): Promise<TestService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-service-'));
  const config = loadConfig({
    DVS_PORT: '0',
    DVS_HOST: '127.0.0.1',
    DVS_DATA_DIR: dataDir,
    DVS_CACHE_DIR: SUITE_CACHE_DIR,
    DVS_LOG_LEVEL: 'silent',
    DVS_BASE_URL: 'https://dvs.example.net',
    ...env,
  });
  const gate = new MemoryGate();
  const log = createLogger(config);
  const ledger = opts.realPayments ? await openPayments(config, log) : null;
  const payments = ledger ?? { gate, certificates: gate, close: async () => {} };
  const service = await startService(config, { log, payments });
  const caPem = opts.tls?.caPem ?? readFileSync(path.join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8');
  const agent = new Agent({ connect: { ca: caPem, servername: opts.tls?.servername ?? 'localhost' } });
  const url = `https://${opts.tls?.host ?? '127.0.0.1'}:${service.port}`;
  const call: TestService['call'] = async (method, pathname, init = {}) => {
    const res = await request(url + pathname, {
      method: method as 'GET',
      dispatcher: agent,
      headers: init.headers,
      body: init.body,
    });
    const text = await res.body.text();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, text, json: () => JSON.parse(text) as unknown };
  };
  return {
    service,
    config,
    gate,
    token: async () => (ledger ? (await ledger.ledger.issue({ source: 'test' }))[0]!.token : gate.issue()),
    dataDir,
    caPem,
    url,
    agent,
    call,
    post: (pathname, body, headers = {}) =>
      call('POST', pathname, {
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers },
      }),
    async stop() {
      await service.close();
      await agent.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The service inside the fixture internet as `<name>.test`: on that site's address and the world's HTTPS port,
 * with a certificate from the world's CA, so probes and callers reach it like any other site.
 */
export async function startServiceAsSite(
  world: World,
  name: string,
  env: Record<string, string> = {},
): Promise<TestService> {
  const site = await externalSite(world, name);
  const tlsDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-site-tls-'));
  writeFileSync(path.join(tlsDir, 'cert.pem'), site.credentials.certPem);
  writeFileSync(path.join(tlsDir, 'key.pem'), site.credentials.keyPem, { mode: 0o600 });
  const svc = await startTestService(
    {
      ...world.env,
      DVS_HOST: site.host,
      DVS_PORT: String(site.port),
      DVS_TLS_CERT: path.join(tlsDir, 'cert.pem'),
      DVS_TLS_KEY: path.join(tlsDir, 'key.pem'),
      // The public name, as on port 443: the probes map the default port to the world's HTTPS port.
      DVS_BASE_URL: `https://${site.domain}`,
      ...env,
    },
    { tls: { caPem: world.caPem, servername: site.domain, host: site.host } },
  );
  return {
    ...svc,
    async stop() {
      await svc.stop();
      rmSync(tlsDir, { recursive: true, force: true });
    },
  };
}
