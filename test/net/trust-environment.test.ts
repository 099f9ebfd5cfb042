// A scan trusts Node's bundled roots and DVS_EXTRA_CA, and nothing the service's environment adds for its own
// outgoing calls: a process started with NODE_EXTRA_CA_CERTS still refuses a host whose certificate only that
// file's CA signed. Run in a child process, since Node reads the variable when it starts.
import { execFile } from 'node:child_process';
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { promisify } from 'node:util';
import path from 'node:path';
import { makeTestCa, startHttpsServer, type LocalServer, type TestCa } from './local-servers.ts';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..', '..');
/** Opens one TLS connection with the scan's secure context for the bundled roots only, and prints whether it verified. */
const PROBE = `
import tls from 'node:tls';
import { secureContexts } from './src/net/secure-contexts.ts';
const port = Number(process.argv[1]);
const socket = tls.connect({ host: '127.0.0.2', port, servername: 'trusted.test', secureContext: secureContexts([...tls.rootCertificates]).get() }, () => {
  console.log(socket.authorized ? 'trusted' : 'refused: ' + socket.authorizationError);
  socket.destroy();
});
socket.on('error', (err) => console.log('refused: ' + err.message));
`;

let ca: TestCa;
let site: LocalServer;

beforeAll(async () => {
  ca = await makeTestCa();
  site = await startHttpsServer('127.0.0.2', await ca.issue(['trusted.test']), (_req, res) => res.end('ok'));
});
afterAll(async () => {
  await site?.close();
});

async function probe(env: Record<string, string>): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', PROBE, String(site.port)],
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
});
