// Caller identity (issue 10 item 6): a request signed per Web Bot Auth is checked against the caller's key
// directory, fetched through the guarded network layer (the address policy applies: it is not a scan, but it is
// a request to a host the caller chose). An unsigned request does no work here; a signed one waits at most
// `waitMs` for a directory the cache does not hold yet.
//
// Each fetch gets a network layer of its own, closed when the fetch ends: a network layer remembers every answer,
// name and connection for the scan it serves, and one kept for the process held every directory any caller ever
// named (issue 31 item 2: 68 KiB per URL, for good, and a refetch answered from that memory).
import type { Config } from '../lib/config.ts';
import { createNet, type ScanNet } from '../net/index.ts';
import { probeUrl } from '../net/site-url.ts';
import { AgentDirectories, type AgentDirectoryOptions, type DirectoryFetcher } from '../signing/agent-directories.ts';
import { verifyCallerSignature, type CallerVerdict, type SignedRequest } from '../signing/caller-signature.ts';

/** A key directory is a few keys: a few kilobytes at most. */
const MAX_DIRECTORY_BYTES = 64 * 1024;

export interface CallerMetrics {
  /** A signed request was verified, or its signature refused (unsigned requests are not counted). */
  callerSignature(outcome: 'verified' | 'invalid'): void;
}

/** Directory fetches as one bounded GET through a network layer of its own, on the ports it reaches hosts on. */
export function netDirectoryFetcher(openNet: () => ScanNet): DirectoryFetcher {
  return async (url, signal) => {
    const net = openNet();
    try {
      const target = probeUrl(new URL(url), net.ports);
      const exchange = await net.request(target, {
        headers: { accept: 'application/http-message-signatures-directory+json' },
        maxBodyBytes: MAX_DIRECTORY_BYTES,
        signal,
      });
      return {
        url: target,
        status: exchange.status,
        headers: exchange.headers,
        body: exchange.body,
        truncated: exchange.truncated,
      };
    } finally {
      await net.close();
    }
  };
}

/**
 * The callers' key directories, each fetched through a guarded network of its own: the address policy, CA and
 * limits of the probes, one connection.
 */
export function netDirectories(config: Config, opts: Omit<AgentDirectoryOptions, 'fetch'> = {}): AgentDirectories {
  return new AgentDirectories({ ...opts, fetch: netDirectoryFetcher(() => createNet(config, { concurrency: 1 })) });
}

export interface CallerIdentityDeps {
  directories: AgentDirectories;
  /** Longest a request waits for a directory fetch (ms). */
  waitMs: number;
  metrics: CallerMetrics;
  now?: () => number;
}

export class CallerIdentities {
  constructor(private readonly deps: CallerIdentityDeps) {}

  async identify(request: SignedRequest): Promise<CallerVerdict> {
    const { directories, waitMs, metrics, now } = this.deps;
    const verdict = await verifyCallerSignature(request, {
      directory: (url) => directories.get(url, waitMs),
      ...(now ? { now } : {}),
    });
    if (verdict.status !== 'unsigned') metrics.callerSignature(verdict.status);
    return verdict;
  }
}
