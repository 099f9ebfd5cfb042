// The composition of a scan from configuration: the ruleset, the probe providers and a fresh guarded network
// per scan, under the tier's deadline. The CLI and the API both scan through here.
import type { Config } from './config.ts';
import { scan, type ScanOutcome } from './engine/scan.ts';
import type { Ruleset } from './engine/ruleset.ts';
import type { Logger, ProbeProvider, Tier } from './engine/types.ts';
import { createNet } from './net/index.ts';
import type { SigningKey } from './signing/keys.ts';

export interface ScannerDeps {
  config: Config;
  ruleset: Ruleset;
  providers: readonly ProbeProvider[];
  log: Logger;
  /** Signs outgoing probe requests (Web Bot Auth) when agent signing is on. */
  agentKey: SigningKey | null;
}

export type Scanner = (domain: string, tier: Tier, signal?: AbortSignal) => Promise<ScanOutcome>;

export function createScanner(deps: ScannerDeps): Scanner {
  const { config } = deps;
  const directory = `${config.baseUrl}/.well-known/http-message-signatures-directory`;
  return (domain, tier, signal) =>
    scan(domain, tier, {
      ruleset: deps.ruleset,
      providers: deps.providers,
      net: createNet(config, deps.agentKey ? { agentKey: deps.agentKey, signatureAgentUrl: directory } : {}),
      deadlineMs: tier === 'quick' ? config.deadlines.quickMs : config.deadlines.fullMs,
      log: deps.log,
      ...(signal ? { signal } : {}),
    });
}
