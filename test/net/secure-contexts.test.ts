import { readFileSync } from 'node:fs';
import tls, { rootCertificates, type SecureContext } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { secureContexts } from '../../src/net/secure-contexts.ts';
import { makeTestCa, startHttpsServer, type LocalServer } from './local-servers.ts';

let server: LocalServer;
let caPem: string;

beforeAll(async () => {
  const ca = await makeTestCa();
  caPem = readFileSync(ca.caFile, 'utf8');
  server = await startHttpsServer('127.0.0.1', await ca.issue(['secure.test']), (_req, res) => res.end());
});
afterAll(() => server.close());
afterEach(() => vi.unstubAllEnvs());

/** Whether a handshake with `context` verifies the test server's chain, and OpenSSL's code when it does not. */
function verdict(context: SecureContext): Promise<{ authorized: boolean; error: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        host: '127.0.0.1',
        port: server.port,
        servername: 'secure.test',
        secureContext: context,
        rejectUnauthorized: false,
      },
      () => {
        resolve({
          authorized: socket.authorized, // Node sets OpenSSL's code here, typed as an Error.
          error: socket.authorizationError ? String(socket.authorizationError) : null,
        });
        socket.destroy();
      },
    );
    socket.once('error', reject);
  });
}

describe('secureContexts', () => {
  it('trusts a certificate added to the bundled roots (built over the shared root store)', async () => {
    // Node's default store would then hold more than the bundled roots, and the context is built from `ca`.
    vi.stubEnv('NODE_EXTRA_CA_CERTS', undefined);
    const context = secureContexts(Object.freeze([...rootCertificates, caPem])).get({ minVersion: 'TLSv1.2' });
    expect(await verdict(context)).toEqual({ authorized: true, error: null });
  });

  it('does not trust it with the bundled roots alone', async () => {
    vi.stubEnv('NODE_EXTRA_CA_CERTS', undefined);
    const context = secureContexts(Object.freeze([...rootCertificates])).get({ minVersion: 'TLSv1.2' });
    expect(await verdict(context)).toEqual({ authorized: false, error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('judges alike when NODE_EXTRA_CA_CERTS has every certificate passed as `ca`', async () => {
    vi.stubEnv('NODE_EXTRA_CA_CERTS', '/etc/ssl/certs/ca-certificates.crt');
    const context = secureContexts(Object.freeze([...rootCertificates, caPem])).get({ minVersion: 'TLSv1.3' });
    expect(await verdict(context)).toEqual({ authorized: true, error: null });
  });

  it('judges as a context given every certificate as `ca` does', async () => {
    // The extra first: not the bundled roots followed by extras, so every certificate goes through `ca`.
    const withCa = secureContexts(Object.freeze([caPem, ...rootCertificates])).get({ minVersion: 'TLSv1.2' });
    const alone = secureContexts(Object.freeze([caPem])).get({ minVersion: 'TLSv1.2' });
    expect(await verdict(withCa)).toEqual({ authorized: true, error: null });
    expect(await verdict(alone)).toEqual({ authorized: true, error: null });
  });
});
