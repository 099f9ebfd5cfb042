// The composition of a scan from configuration: the ruleset, the probe providers and a fresh guarded network
// per scan, under the tier's deadline. The CLI and the service both scan through here.
import type { Config } from '../lib/config.ts';
import { scan, type ScanOutcome, type ScanProgress } from '../engine/scan.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { ProbeProvider, Tier } from '../engine/types.ts';
import type { Logger } from '../lib/log.ts';
import { createNet } from '../net/index.ts';
import { NetError } from '../net/types.ts';
import type { SigningKey } from '../signing/keys.ts';

export interface ScannerDeps {
  config: Config;
  ruleset: Ruleset;
  providers: readonly ProbeProvider[];
  log: Logger;
  /** Signs outgoing probe requests (Web Bot Auth) when agent signing is on. */
  agentKey: SigningKey | null;
}

/** Whether there is anything to scan: a domain that does not resolve, or only to refused addresses, is not judged. */
export type Preflight = { ok: true } | { ok: false; reason: 'nxdomain' | 'no_address' | 'not_public'; text: string };

export interface Scanner {
  preflight(domain: string): Promise<Preflight>;
  scan(domain: string, tier: Tier, signal?: AbortSignal, onProgress?: ProgressListener): Promise<ScanOutcome>;
}

export type { ScanProgress };
/** Told as each probe of a scan finishes. */
export type ProgressListener = (progress: ScanProgress) => void;

export function createScanner(deps: ScannerDeps): Scanner {
  const { config } = deps;
  const directory = `${config.baseUrl}/.well-known/http-message-signatures-directory`;
  const netOptions = deps.agentKey ? { agentKey: deps.agentKey, signatureAgentUrl: directory } : {};
  return {
    async preflight(domain) {
      try {
        await createNet(config).resolve(domain);
        return { ok: true };
      } catch (err) {
        if (!(err instanceof NetError)) throw err;
        switch (err.code) {
          case 'dns_nxdomain':
            return {
              ok: false,
              reason: 'nxdomain',
              text: `${domain} does not exist in DNS (NXDOMAIN), so there is nothing to scan. Check the spelling.`,
            };
          case 'dns_nodata':
            return {
              ok: false,
              reason: 'no_address',
              text: `${domain} has no A or AAAA record, so no web server can be reached at that name.`,
            };
          case 'policy_refused':
            return {
              ok: false,
              reason: 'not_public',
              text: `${domain} resolves only to addresses that are not public (private, loopback, link-local or reserved ranges); the service does not scan those.`,
            };
          default:
            // A resolver that fails or times out is evidence for the scan to record, not a reason to skip it.
            return { ok: true };
        }
      }
    },
    scan: (domain, tier, signal, onProgress) =>
      scan(domain, tier, {
        ruleset: deps.ruleset,
        providers: deps.providers,
        net: createNet(config, netOptions),
        deadlineMs: tier === 'quick' ? config.deadlines.quickMs : config.deadlines.fullMs,
        log: deps.log,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress } : {}),
      }),
  };
}
