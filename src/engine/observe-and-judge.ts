// One scan: the probes the tier's rules need, in parallel under one deadline, then the evaluator.
// Probes gather; this module only schedules them, records how each run ended, and checks their output
// against their schema before any rule sees it.
import { performance } from 'node:perf_hooks';
import { NetError, type Net } from '../net/types.ts';
import { canonicalJson, sha256Hex } from '../lib/canonical-json.ts';
import { evaluate, rulesOfTier } from './evaluate.ts';
import type { Ruleset } from './ruleset.ts';
import type { Observations, ProbeRun, ProbeStatus, Report, ScanProvider, Tier } from './types.ts';
import type { Logger } from '../lib/log.ts';
import { abortReason } from '../lib/abort-reason.ts';

export class ScanDeadlineError extends Error {
  override name = 'ScanDeadlineError';
  constructor(
    readonly deadlineMs: number,
    readonly pending: string[],
  ) {
    super(`the scan passed its ${deadlineMs} ms deadline with ${pending.join(', ')} still running`);
  }
}

export interface ScanOptions {
  ruleset: Ruleset;
  providers: readonly ScanProvider[];
  /** A fresh guarded network for this scan (its limits are per scan). */
  net: Net;
  deadlineMs: number;
  log: Logger;
  /** The scan's one reading of the clock; observed_at is fixed from it. */
  now?: () => Date;
  /** Cancels the scan from outside (shutdown, client gone). */
  signal?: AbortSignal;
  /** Told each time a probe finishes, for callers that show progress; it cannot fail the scan. */
  onProgress?: (progress: ScanProgress) => void;
}

/** One probe has finished: which, how, and how many of the scan's probes have finished so far. */
export interface ScanProgress {
  probe: string;
  status: ProbeStatus;
  done: number;
  total: number;
}

export interface ScanOutcome {
  observations: Observations;
  /**
   * The observations' canonical JSON (RFC 8785): the text evidence_digest names, made once for the digest and for
   * whoever keeps or writes the evidence.
   */
  evidence: string;
  report: Report;
}

/** Whether a requested path and a rule's required path overlap (one is the other or lies under it). */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(b + '.') || b.startsWith(a + '.');
}

interface TierPaths {
  paths: readonly string[];
  needs: (path: string) => boolean;
}

/** Per ruleset and tier: every scan asks the same questions of the same paths (probes ask once per facet). */
const tierPaths = new WeakMap<Ruleset, Partial<Record<Tier, TierPaths>>>();

function pathsOfTier(ruleset: Ruleset, tier: Tier): TierPaths {
  let byTier = tierPaths.get(ruleset);
  if (!byTier) tierPaths.set(ruleset, (byTier = {}));
  return (byTier[tier] ??= readPaths([...new Set(rulesOfTier(ruleset, tier).flatMap((r) => r.requires))].sort()));
}

function readPaths(paths: string[]): TierPaths {
  const answers = new Map<string, boolean>();
  return {
    paths,
    needs: (path) => {
      let answer = answers.get(path);
      if (answer === undefined) answers.set(path, (answer = paths.some((q) => overlaps(path, q))));
      return answer;
    },
  };
}

/** The paths the tier's rules read, and the providers that fill them: no per-tier probe list is kept by hand. */
export function planScan<P extends ScanProvider>(ruleset: Ruleset, providers: readonly P[], tier: Tier) {
  const { paths, needs } = pathsOfTier(ruleset, tier);
  return { paths, needs, providers: providers.filter((p) => needs(p.name)) };
}

/** observed_at has second precision: enough for dates, and stable in print. */
export function observedAt(now: Date): string {
  return new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The evidence of the probe runs, canonicalised once (for its digest and its keepers), and the report on it. */
function judged(
  domain: string,
  at: string,
  runs: [string, ProbeRun, unknown][],
  ruleset: Ruleset,
  tier: Tier,
): ScanOutcome {
  const observations: Observations = { target: { domain, observed_at: at }, probes: {} };
  for (const [name, run, data] of runs.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    observations.probes[name] = run;
    if (data !== undefined) observations[name] = data;
  }
  const evidence = canonicalJson(observations);
  return { observations, evidence, report: evaluate(observations, ruleset, tier, sha256Hex(evidence)) };
}

export async function scan(domain: string, tier: Tier, opts: ScanOptions): Promise<ScanOutcome> {
  const { ruleset, log } = opts;
  const plan = planScan(ruleset, opts.providers, tier);
  // A scan cancelled before it began starts no probe (and no timer).
  opts.signal?.throwIfAborted();
  const at = observedAt((opts.now ?? (() => new Date()))());
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new ScanDeadlineError(opts.deadlineMs, [])), opts.deadlineMs);
  const signal = opts.signal ? AbortSignal.any([deadline.signal, opts.signal]) : deadline.signal;
  const pending = new Set(plan.providers.map((p) => p.name));

  const runOne = async (provider: ScanProvider): Promise<[string, ProbeRun, unknown]> => {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const data = await provider.collect(domain, {
        net: opts.net,
        signal,
        observedAt: at,
        log,
        needs: plan.needs,
      });
      const invalid = ruleset.schemas.validate(provider.name, data, 'complete');
      if (invalid) {
        log.warn({ probe: provider.name, invalid }, 'probe output does not match its schema');
        return [
          provider.name,
          { status: 'error', error: `output does not match its schema: ${invalid}`.slice(0, 500), ms: ms() },
          undefined,
        ];
      }
      return [provider.name, { status: 'ok', ms: ms() }, data];
    } catch (err) {
      // A provider may reject with anything, even undefined; the scan records it rather than crash on it.
      const timedOut =
        signal.aborted ||
        (err instanceof Error && err.name === 'TimeoutError') ||
        (err instanceof NetError && (err.code === 'timeout' || err.code === 'dns_timeout'));
      const message = err instanceof Error ? err.message : String(err);
      if (!timedOut) log.warn({ probe: provider.name, err: message }, 'probe failed');
      return [
        provider.name,
        { status: timedOut ? 'timeout' : 'error', error: message.slice(0, 300), ms: ms() },
        undefined,
      ];
    } finally {
      pending.delete(provider.name);
    }
  };

  const aborted = new Promise<never>((_, reject) => {
    const fail = () =>
      reject(
        signal.reason instanceof ScanDeadlineError
          ? new ScanDeadlineError(opts.deadlineMs, [...pending].sort())
          : abortReason(signal),
      );
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);

  let done = 0;
  const runAndTell = async (provider: ScanProvider) => {
    const outcome = await runOne(provider);
    try {
      opts.onProgress?.({ probe: outcome[0], status: outcome[1].status, done: ++done, total: plan.providers.length });
    } catch (err) {
      log.warn({ probe: provider.name, err: (err as Error).message }, 'a progress listener failed');
    }
    return outcome;
  };

  try {
    const runs = await Promise.race([Promise.all(plan.providers.map(runAndTell)), aborted]);
    return judged(domain, at, runs, ruleset, tier);
  } finally {
    clearTimeout(timer);
    deadline.abort();
  }
}
