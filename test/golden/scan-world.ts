// Scans sites of the fixture internet with the real probes and ruleset: shared by the golden test and
// `npm run golden:update`, so both see the world the same way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import { catalogue } from '../suite/ruleset.ts';
import type { SharedWorld } from '../suite/world.ts';
import type { ScanOutcome } from '../../src/engine/observe-and-judge.ts';
import type { Tier } from '../../src/engine/types.ts';
import { createScanner, type Scanner } from '../../src/service/scanner.ts';
import { loadAgentKey } from '../../src/signing/keys.ts';
import { startWorld } from '../world/index.ts';

export interface GoldenSite {
  domain: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  /** Required rules whose failure (or error) is the reason for the verdict; `all` when none could be judged. */
  because: string[] | 'all';
}

/** The golden sites: the good one, and broken ones each failing for the reasons named here. */
export const GOLDEN_SITES: readonly GoldenSite[] = [
  { domain: 'good.test', verdict: 'CERTIFIED', because: [] },
  { domain: 'ag-jwks-private.test', verdict: 'NOT_CONFORMANT', because: ['identity.jwks.public_keys_only'] },
  { domain: 'dns-single-ns.test', verdict: 'NOT_CONFORMANT', because: ['dns.ns.at_least_two'] },
  { domain: 'http-no-hsts.test', verdict: 'NOT_CONFORMANT', because: ['headers.hsts.present'] },
  { domain: 'http-spa-shell.test', verdict: 'NOT_CONFORMANT', because: ['content.raw_html.text_present'] },
  { domain: 'reach-dead-address.test', verdict: 'NOT_CONFORMANT', because: ['http.reachability.tls_every_address'] },
  { domain: 'tls-legacy.test', verdict: 'NOT_CONFORMANT', because: ['tls.protocol.tls10_disabled', 'tls.protocol.tls11_disabled'] },
  {
    domain: 'tls-expired.test',
    verdict: 'NOT_CONFORMANT',
    // An expired certificate also stops every agent from fetching the site over HTTPS, robots.txt included, and
    // makes browsers ignore its HSTS header (RFC 6797 section 8.1).
    because: [
      'headers.hsts.present',
      'http.https.available',
      'http.reachability.certificate_every_address',
      'robots.txt.reachable',
      'robots.txt.user_fetchers_allowed',
      'tls.cert.in_validity_period',
      'tls.cert.trusted',
    ],
  },
  {
    domain: 'wk-security-txt-expired.test',
    verdict: 'NOT_CONFORMANT',
    because: [
      'wellknown.security_txt.charset',
      'wellknown.security_txt.https_uris',
      'wellknown.security_txt.preferred_languages_once',
      'wellknown.security_txt.unexpired',
    ],
  },
  // Its resolver never answers: every probe times out and no rule can be judged.
  { domain: 'dns-timeout.test', verdict: 'INCOMPLETE', because: 'all' },
];

export const GOLDEN_DIR = path.join(import.meta.dirname);
/** The full evidence of every site of the fixture internet (`npm run golden:update` writes it). */
export const WORLD_EVIDENCE_DIR = path.join(import.meta.dirname, 'world');

const quiet = { debug() {}, info() {}, warn() {} };

export interface WorldScanner {
  world: SharedWorld;
  ruleset: Ruleset;
  scanner: Scanner;
  scan(domain: string, tier?: Tier): Promise<ScanOutcome>;
  stop(): Promise<void>;
}

/**
 * `from`: a running world to scan (the suite's shared one), or the sites folder of a world to start (the
 * real-world corpus builds one); by default a world of the standard sites is started, and stopped by stop().
 */
export async function worldScanner(
  env: Record<string, string> = {},
  from?: string | SharedWorld,
): Promise<WorldScanner> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dvs-scan-'));
  const agentKey = await loadAgentKey(dataDir);
  const own =
    typeof from === 'object'
      ? null
      : await startWorld({ trustedAgentKeys: [agentKey.publicJwk], ...(from ? { sitesDir: from } : {}) });
  const world = own ?? (from as SharedWorld);
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: dataDir, DVS_BASE_URL: 'https://dvs.test', ...env });
  const ruleset = catalogue();
  const scanner = createScanner({ config, ruleset, providers, log: quiet, agentKey });
  return {
    world,
    ruleset,
    scanner,
    scan: (domain, tier = 'full') => scanner.scan(domain, tier),
    async stop() {
      await own?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
