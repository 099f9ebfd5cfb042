// Scans sites of the fixture internet with the real probes and ruleset: shared by the golden test and
// `npm run golden:update`, so both see the world the same way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/config.ts';
import { loadRuleset, type Ruleset } from '../../src/engine/ruleset.ts';
import type { ScanOutcome } from '../../src/engine/scan.ts';
import type { Tier } from '../../src/engine/types.ts';
import { createScanner, type Scanner } from '../../src/scanner.ts';
import { loadAgentKey } from '../../src/signing/keys.ts';
import { startWorld, type World } from '../world/index.ts';

export interface GoldenSite {
  domain: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  /** Required rules whose failure (or error) is the reason for the verdict. */
  because: string[];
}

/** The golden sites: the good one, and broken ones each failing for the reasons named here. */
export const GOLDEN_SITES: readonly GoldenSite[] = [{ domain: 'good.test', verdict: 'CERTIFIED', because: [] }];

export const GOLDEN_DIR = path.join(import.meta.dirname);

const quiet = { debug() {}, info() {}, warn() {} };

export interface WorldScanner {
  world: World;
  ruleset: Ruleset;
  scanner: Scanner;
  scan(domain: string, tier?: Tier): Promise<ScanOutcome>;
  stop(): Promise<void>;
}

export async function worldScanner(env: Record<string, string> = {}): Promise<WorldScanner> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dvs-scan-'));
  const agentKey = await loadAgentKey(dataDir);
  const world = await startWorld({ trustedAgentKeys: [agentKey.publicJwk] });
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: dataDir, DVS_BASE_URL: 'https://dvs.test', ...env });
  const ruleset = loadRuleset();
  const scanner = createScanner({ config, ruleset, providers, log: quiet, agentKey });
  return {
    world,
    ruleset,
    scanner,
    scan: (domain, tier = 'full') => scanner.scan(domain, tier),
    async stop() {
      await world.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
