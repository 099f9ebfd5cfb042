// The composition of a scan from configuration: the ruleset, the probe providers and a fresh guarded network
// per scan, under the tier's deadline. The CLI and the service both scan through here.
import type { Config } from '../lib/config.ts';
import { scan, ScanDeadlineError, type ScanOutcome, type ScanProgress } from '../engine/observe-and-judge.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { ScanProvider, Tier } from '../engine/types.ts';
import type { Logger } from '../lib/log.ts';
import { createNet } from '../net/index.ts';
import { NetError, type ScanNet } from '../net/types.ts';
import { watchHost } from '../net/host-clock.ts';
import type { SigningKey } from '../signing/keys.ts';
import type { ScanLane, ScanSlots } from './scan-slots.ts';

export interface ScannerDeps {
  config: Config;
  ruleset: Ruleset;
  providers: readonly ScanProvider[];
  log: Logger;
  /** Signs outgoing probe requests (Web Bot Auth) when agent signing is on. */
  agentKey: SigningKey | null;
  /** The service-wide bound on concurrent scans; none for a single scan from the command line. */
  slots?: ScanSlots;
  /** Trace each scan's network operations (`dvs scan --trace`): read them from the pre-scan check's `net`. */
  trace?: boolean;
}

/**
 * Whether there is anything to scan: a domain that does not resolve, or only to refused addresses, is not judged.
 * When there is, `net` is the network the check used: the scan that follows reuses it, so the check's DNS
 * questions are not asked again.
 */
export type Preflight =
  { ok: true; net?: ScanNet } | { ok: false; reason: 'nxdomain' | 'no_address' | 'not_public'; text: string };

export interface ScanCall {
  /** Cancels the scan from outside (shutdown, client gone). */
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** The pre-scan check of this domain the scan follows. */
  preflight?: Preflight;
  /** A batch item's scan runs in the batch slot its worker holds, not in an interactive one. */
  lane?: ScanLane;
  /** Who the scan runs for (a Quick Scan's client address): the slots bound each client's share. */
  client?: string;
}

export interface Scanner {
  /** The check before a scan of `tier` (its network is the scan's, sized for the tier). */
  preflight(domain: string, tier: Tier): Promise<Preflight>;
  scan(domain: string, tier: Tier, call?: ScanCall): Promise<ScanOutcome>;
}

export type { ScanProgress };
/** Told as each probe of a scan finishes. */
export type ProgressListener = (progress: ScanProgress) => void;

/**
 * A busy process stretches a scan's budget up to this many times in wall time (the caller's longest wait); past
 * it the scan ends whatever the host clock says.
 */
const WALL_CEILING = 3;

/**
 * Requests a Quick Scan keeps in flight, and connections per host: the six a browser opens to an HTTP/1.1 host. At
 * four its operations queued for slots and the scan took 1.8x its critical path; at six it is near the path.
 */
export const QUICK_CONCURRENCY = 6;

/**
 * The scan's budget on host time (see net/host-clock.ts): a scan that waited on a busy CPU, not on its hosts,
 * is not cut short, so its outcome is the same however many others run. Aborts with ScanDeadlineError.
 */
function hostDeadline(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const watch = watchHost();
  const expire = (): void => {
    const left = ms - watch.elapsed();
    if (left > 0) timer = setTimeout(expire, left);
    else controller.abort(new ScanDeadlineError(ms, []));
  };
  let timer = setTimeout(expire, ms);
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      watch.stop();
    },
  };
}

/** The trace's scope of the pre-scan check's DNS questions, which the probes then reuse. */
export const PREFLIGHT_SCOPE = 'preflight';

/** Each provider's network operations traced under its name (the trace is off unless the Net was asked for it). */
export function withinNet(net: ScanNet, providers: readonly ScanProvider[]): ScanProvider[] {
  return providers.map((p) => ({ ...p, collect: (domain, ctx) => net.within(p.name, () => p.collect(domain, ctx)) }));
}

/** Why a domain is not scanned, or null when it is (a resolver that fails is evidence for the scan to record). */
async function refusal(net: ScanNet, domain: string): Promise<Extract<Preflight, { ok: false }> | null> {
  try {
    await net.resolve(domain);
    return null;
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
        return null;
    }
  }
}

export function createScanner(deps: ScannerDeps): Scanner {
  const { config } = deps;
  const directory = `${config.baseUrl}/.well-known/http-message-signatures-directory`;
  const signing = deps.agentKey ? { agentKey: deps.agentKey, signatureAgentUrl: directory } : {};
  // A Quick Scan keeps its connection budget (test/scan/quick-tier-cost.test.ts) with fewer requests in flight,
  // hence fewer connections per host (see NetOptions.concurrency).
  const options = { ...signing, trace: deps.trace === true };
  const netFor = (tier: Tier) =>
    createNet(config, tier === 'quick' ? { ...options, concurrency: QUICK_CONCURRENCY } : options);
  return {
    async preflight(domain, tier) {
      const net = netFor(tier);
      const refused = await net.within(PREFLIGHT_SCOPE, () => refusal(net, domain));
      if (!refused) return { ok: true, net };
      await net.close();
      return refused;
    },
    async scan(domain, tier, { signal, onProgress, preflight, lane, client } = {}) {
      // The pre-scan check's network is reused, so its DNS questions are not asked again.
      const net = (preflight?.ok === true ? preflight.net : undefined) ?? netFor(tier);
      // Waiting for a slot is not part of the scan's budget; a refusal (ScansBusyError) reaches the caller.
      let release: () => void = () => undefined;
      try {
        if (deps.slots && lane !== 'batch') release = await deps.slots.acquire(tier, client);
      } catch (err) {
        await net.close();
        throw err;
      }
      const budgetMs = tier === 'quick' ? config.deadlines.quickMs : config.deadlines.fullMs;
      const deadline = hostDeadline(budgetMs);
      try {
        return await scan(domain, tier, {
          ruleset: deps.ruleset,
          providers: withinNet(net, deps.providers),
          net,
          deadlineMs: budgetMs * WALL_CEILING,
          log: deps.log,
          signal: signal ? AbortSignal.any([deadline.signal, signal]) : deadline.signal,
          ...(onProgress ? { onProgress } : {}),
        });
      } catch (err) {
        // Reported against the budget the caller configured, whichever clock ended the scan.
        if (err instanceof ScanDeadlineError) throw new ScanDeadlineError(budgetMs, err.pending);
        throw err;
      } finally {
        deadline.clear();
        // A probe still running past the deadline finds its connections closed rather than keeping them open.
        await net.close();
        release();
      }
    },
  };
}
