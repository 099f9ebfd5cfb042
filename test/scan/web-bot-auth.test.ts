// Probe requests carry Web Bot Auth signatures (RFC 9421, Ed25519, Signature-Agent naming the service's key
// directory): a site that admits only verified agents answers the scan, and refuses it when signing is off.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { catalogue } from '../suite/ruleset.ts';
import { createScanner } from '../../src/service/scanner.ts';
import { loadAgentKey, type SigningKey } from '../../src/signing/keys.ts';
import { startWorld, type World } from '../world/index.ts';

const quiet = { debug() {}, info() {}, warn() {} };
const ruleset = catalogue();
let world: World;
let agentKey: SigningKey;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'dvs-wba-'));
  agentKey = await loadAgentKey(dataDir);
  world = await startWorld({
    sitesDir: path.join(import.meta.dirname, '..', 'world', 'fixtures', 'sites'),
    trustedAgentKeys: [agentKey.publicJwk],
  });
});
afterAll(async () => {
  await world?.stop();
});

async function homeStatus(signing: boolean): Promise<unknown> {
  const config = loadConfig({
    ...world.env,
    DVS_DATA_DIR: dataDir,
    DVS_AGENT_SIGNING: signing ? '1' : '0',
    // The key directory a verifier accepts is on the default port (issue 31 item 9), as a public service's is.
    DVS_BASE_URL: 'https://dvs.example.net',
  });
  const scanner = createScanner({ config, ruleset, providers, log: quiet, agentKey: signing ? agentKey : null });
  const { observations } = await scanner.scan('botauth.test', 'quick');
  return (observations.http as { response: { status: number | null } }).response.status;
}

it('is admitted by a site that verifies Web Bot Auth signatures', async () => {
  expect(await homeStatus(true)).toBe(200);
});

it('is refused by that site without signatures', async () => {
  expect(await homeStatus(false)).toBe(401);
});
