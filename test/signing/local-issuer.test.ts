// `dvs verify` against a service running on this machine (issue 9 item 5): its base URL is
// https://localhost:<port>, which the scanner's guarded resolver (the fixture internet's DNS here) answers
// NXDOMAIN. A verifier reaching an issuer it trusts is not a scan, so it gets there all the same.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.ts';
import { run as certificatesCli } from '../../src/cli/certificates.ts';
import { run as verify } from '../../src/cli/verify.ts';
import { Certificates } from '../../src/service/certificates.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import type { Config } from '../../src/lib/config.ts';
import { startInProcess, startPaymentsWorld, type InProcessService } from '../payments/service.ts';

let scratch: string;
let world: Awaited<ReturnType<typeof startPaymentsWorld>>;
let local: InProcessService;
let certificateFile: string;
let first: Certificate;

/** A Full Validation of good.test, paid with a fresh token: the certificate text. */
async function validate(): Promise<string> {
  const [issued] = await local.payments.ledger.issue({ source: 'test' });
  const outcome = await local.client.rest('good.test', issued!.token);
  expect(outcome.error).toBeNull();
  return outcome.certificate!;
}

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
  const text = await validate();
  first = JSON.parse(text) as Certificate;
  certificateFile = path.join(scratch, 'good.json');
  writeFileSync(certificateFile, text);
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

  it('asks the issuer for the status, and skips it with --offline', async () => {
    const io = capture(local.config);
    expect(await verify([certificateFile], io)).toBe(0);
    expect(io.out()).toContain(
      `✓ status: valid according to ${local.config.baseUrl}/api/certificates/${first.payload.id}/status`,
    );
    const offline = capture(local.config);
    expect(await verify([certificateFile, '--offline'], offline)).toBe(0);
    expect(offline.out()).not.toContain('status');
  });

  it('still refuses it when the user trusts another issuer only', async () => {
    const io = capture(local.config);
    expect(await verify([certificateFile, '--issuer', 'https://dvs.example.net'], io)).toBe(1);
    expect(io.out()).toContain(`✗ jwks: not fetched: ${local.config.baseUrl} is not a trusted issuer`);
  });
});

describe('certificate status (issue 10 item 3)', () => {
  it('answers valid, then superseded once a newer certificate exists, then revoked with reason and time', async () => {
    const id = first.payload.id;
    const valid = await local.client.call('GET', `/api/certificates/${id}/status`);
    expect(valid.status).toBe(200);
    expect(JSON.parse(valid.text) as unknown).toMatchObject({
      id,
      domain: 'good.test',
      status: 'valid',
      issued_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      expires_at: first.payload.expires_at,
    });

    const second = JSON.parse(await validate()) as Certificate;
    const certificates = new Certificates(local.payments.ledger);
    expect((await certificates.current('good.test'))!.certificate.payload.id).toBe(second.payload.id);
    const superseded = JSON.parse((await local.client.call('GET', `/api/certificates/${id}/status`)).text) as unknown;
    expect(superseded).toMatchObject({ status: 'superseded', superseded_by: second.payload.id });
    const io = capture(local.config);
    expect(await verify([certificateFile], io)).toBe(1);
    expect(io.out()).toContain(`✗ status: superseded by ${second.payload.id}`);
    expect(await verify([certificateFile, '--at', new Date().toISOString()], capture(local.config))).toBe(0);

    const revoke = capture(local.config);
    expect(
      await certificatesCli(['revoke', id, '--reason', 'the site was found serving a different host'], revoke),
    ).toBe(0);
    expect(revoke.out()).toMatch(
      /status {6}revoked\nissued .*\nexpires .*\nrevoked {5}\S+: the site was found serving a different host/,
    );
    const revoked = JSON.parse((await local.client.call('GET', `/api/certificates/${id}/status`)).text) as unknown;
    expect(revoked).toMatchObject({ status: 'revoked', reason: 'the site was found serving a different host' });
    const after = capture(local.config);
    expect(await verify([certificateFile], after)).toBe(1);
    expect(after.out()).toMatch(/✗ status: revoked on \S+: the site was found serving a different host/);
    const status = capture(local.config);
    expect(await certificatesCli(['status', second.payload.id], status)).toBe(0);
    expect(status.out()).toContain('status      valid');
  }, 120_000);

  it('answers 404 for an id it never issued, and the CLI says so', async () => {
    const res = await local.client.call('GET', '/api/certificates/dvc_0123/status');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({
      error: 'no certificate with id "dvc_0123" was issued by this service',
    });
    let err = '';
    const io = { ...capture(local.config), stderr: { write: (t: string) => (err += t) } };
    expect(await certificatesCli(['status', 'dvc_0123'], io)).toBe(1);
    expect(err).toContain('no certificate dvc_0123 in the ledger');
    await expect(certificatesCli(['revoke', 'dvc_0123'], io)).rejects.toThrow(/revoke needs --reason/);
    await expect(certificatesCli(['revoke', 'dvc_0123', '--reason', '  '], io)).rejects.toThrow(/needs a reason/);
  });
});
