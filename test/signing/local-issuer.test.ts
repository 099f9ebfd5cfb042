// `dvs verify` against a service running on this machine (issue 9 item 5): its base URL is
// https://localhost:<port>, which the scanner's guarded resolver (the fixture internet's DNS here) answers
// NXDOMAIN. A verifier reaching an issuer it trusts is not a scan, so it gets there all the same.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.ts';
import { run as verify } from '../../src/cli/verify.ts';
import type { Config } from '../../src/lib/config.ts';
import { startInProcess, startPaymentsWorld, type InProcessService } from '../payments/service.ts';

let scratch: string;
let world: Awaited<ReturnType<typeof startPaymentsWorld>>;
let local: InProcessService;
let certificateFile: string;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

function capture(config: Config): CliIo & { out: () => string } {
  let out = '';
  return { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, config, out: () => out };
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'dvs-local-issuer-'));
  world = await startPaymentsWorld();
  local = await startInProcess(world, path.join(scratch, 'data'), { DVS_PORT: String(await freePort()) });
  const [issued] = await local.payments.ledger.issue({ source: 'test' });
  const token = issued!.token;
  const outcome = await local.client.rest('good.test', token);
  expect(outcome.error).toBeNull();
  certificateFile = path.join(scratch, 'good.json');
  writeFileSync(certificateFile, outcome.certificate!);
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await world?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('dvs verify against a local service', () => {
  it('fetches the key set from https://localhost:<port>, which the scanning resolver does not know', async () => {
    const { config } = local;
    expect(config.baseUrl).toMatch(/^https:\/\/localhost:\d+$/);
    expect(config.net.dnsServers).toEqual(world.env.DVS_DNS_SERVERS!.split(','));
    const io = capture(config);
    expect(await verify([certificateFile], io)).toBe(0);
    expect(io.out()).toContain(`keys from ${config.baseUrl}/.well-known/jwks.json`);
    expect(io.out()).toContain(`✓ issuer: ${config.baseUrl} (trusted)`);
    expect(io.out()).toMatch(/valid: \d+ checks passed/);
  });

  it('still refuses it when the user trusts another issuer only', async () => {
    const io = capture(local.config);
    expect(await verify([certificateFile, '--issuer', 'https://dvs.example.net'], io)).toBe(1);
    expect(io.out()).toContain(`✗ jwks: not fetched: ${local.config.baseUrl} is not a trusted issuer`);
  });
});
