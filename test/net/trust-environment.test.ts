// A scan trusts Node's bundled roots and DVS_EXTRA_CA, and nothing the service's environment adds for its own
// outgoing calls: a process started with NODE_EXTRA_CA_CERTS still refuses a host whose certificate only that
// file's CA signed, with or without a CA of DVS_EXTRA_CA's. Run in a child process, since Node reads the variable
// when it starts.
import { execFile } from 'node:child_process';
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { promisify } from 'node:util';
import path from 'node:path';
import { makeTestCa, startHttpsServer, type LocalServer, type TestCa } from './local-servers.ts';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..', '..');
/**
 * Opens one TLS connection with the scan's secure context for the bundled roots and the CA file given, if any, as
 * loadTrustStore makes the store, and prints whether it verified.
 */
const PROBE = `
import tls from 'node:tls';
import { loadTrustStore } from './src/net/trust-store.ts';
import { secureContexts } from './src/net/secure-contexts.ts';
const port = Number(process.argv[1]);
const store = loadTrustStore(process.argv[2] || null);
const socket = tls.connect({ host: '127.0.0.2', port, servername: 'trusted.test', secureContext: secureContexts(store).get() }, () => {
  console.log(socket.authorized ? 'trusted' : 'refused: ' + socket.authorizationError);
  socket.destroy();
});
socket.on('error', (err) => console.log('refused: ' + err.message));
`;

let ca: TestCa;
let extraCa: TestCa;
let site: LocalServer;
let extraSite: LocalServer;

beforeAll(async () => {
  ca = await makeTestCa('environment CA');
  extraCa = await makeTestCa('DVS_EXTRA_CA CA');
  site = await startHttpsServer('127.0.0.2', await ca.issue(['trusted.test']), (_req, res) => res.end('ok'));
  extraSite = await startHttpsServer('127.0.0.2', await extraCa.issue(['trusted.test']), (_req, res) => res.end('ok'));
});
afterAll(async () => {
  await site?.close();
  await extraSite?.close();
});

async function probe(env: Record<string, string>, server = site, extraCaFile = ''): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', PROBE, String(server.port), extraCaFile],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
    },
  );
  return stdout.trim();
}

describe('the trust store of a scan', () => {
  it('does not take in NODE_EXTRA_CA_CERTS', async () => {
    expect(await probe({ NODE_EXTRA_CA_CERTS: ca.caFile })).toMatch(/^refused/);
  }, 30_000);

  it('does not take in NODE_EXTRA_CA_CERTS beside a CA of its own, which it trusts', async () => {
    const env = { NODE_EXTRA_CA_CERTS: ca.caFile };
    expect(await probe(env, site, extraCa.caFile)).toMatch(/^refused/);
    expect(await probe(env, extraSite, extraCa.caFile)).toBe('trusted');
  }, 30_000);

  it('trusts the environment-free store as Node trusts its bundled roots: the test CA only when added', async () => {
    expect(await probe({ NODE_EXTRA_CA_CERTS: '' }, site)).toMatch(/^refused/);
    expect(await probe({ NODE_EXTRA_CA_CERTS: '' }, site, ca.caFile)).toBe('trusted');
  }, 30_000);
});
