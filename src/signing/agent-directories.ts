// Callers' key directories, fetched once and kept as their HTTP caching headers allow (RFC 9111, read by
// http-cache-semantics as a private cache), within bounds: at most `maxEntries` directories, each kept between
// `minTtlMs` (so a directory that forbids caching cannot make the service fetch it per request) and `maxTtlMs`,
// and a failure kept only `negativeTtlMs`. A request never waits longer than its own short bound for a fetch:
// the fetch goes on and fills the cache for the caller's next request.
import CachePolicy from 'http-cache-semantics';
import { BoundedCache } from '../lib/bounded-cache.ts';
import { verifyDirectory, type DirectoryResponse, type DirectoryResult } from './agent-directory.ts';

/** Fetches a directory URL (through the guarded network layer in the service). */
export type DirectoryFetcher = (url: string, signal: AbortSignal) => Promise<DirectoryResponse>;

export interface AgentDirectoryOptions {
  fetch: DirectoryFetcher;
  maxEntries?: number;
  minTtlMs?: number;
  maxTtlMs?: number;
  negativeTtlMs?: number;
  /** A fetch is abandoned after this long, whoever waits for it. */
  fetchTimeoutMs?: number;
  /** Most directory fetches in flight at once: many distinct Signature-Agent URLs cannot fan out without end. */
  maxInFlight?: number;
}

export class AgentDirectories {
  private readonly cache: BoundedCache<DirectoryResult>;
  private readonly inFlight = new Map<string, Promise<DirectoryResult>>();
  private readonly opts: Required<Omit<AgentDirectoryOptions, 'fetch'>> & Pick<AgentDirectoryOptions, 'fetch'>;

  constructor(opts: AgentDirectoryOptions) {
    this.opts = {
      maxEntries: 1000,
      minTtlMs: 30_000,
      maxTtlMs: 3_600_000,
      negativeTtlMs: 30_000,
      fetchTimeoutMs: 5_000,
      maxInFlight: 32,
      ...opts,
    };
    this.cache = new BoundedCache({ maxKeys: this.opts.maxEntries, ttlSeconds: this.opts.maxTtlMs / 1000 });
  }

  /** The directory at `url`, from the cache or a fetch; past `waitMs` it answers "not available yet". */
  async get(url: URL, waitMs: number): Promise<DirectoryResult> {
    const key = url.href;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const fetching = this.inFlight.get(key) ?? this.start(key);
    if (!fetching) return { ok: false, reason: 'too many key directories are being fetched; try again shortly' };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<DirectoryResult>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, reason: `not fetched within ${waitMs} ms; the next request will find it` }),
        waitMs,
      );
    });
    try {
      return await Promise.race([fetching, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private start(key: string): Promise<DirectoryResult> | null {
    if (this.inFlight.size >= this.opts.maxInFlight) return null;
    const fetching = this.fetchAndVerify(key)
      .then(({ result, ttlMs }) => {
        this.cache.set(key, result, ttlMs / 1000);
        return result;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, fetching);
    return fetching;
  }

  private async fetchAndVerify(key: string): Promise<{ result: DirectoryResult; ttlMs: number }> {
    const { minTtlMs, maxTtlMs, negativeTtlMs, fetchTimeoutMs } = this.opts;
    let response: DirectoryResponse;
    // A timer cleared with the fetch, not AbortSignal.timeout: that signal, and everything its listeners hold
    // (the fetch's network layer), would live on until the timeout passed, fetch after fetch.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`no answer within ${fetchTimeoutMs} ms`)), fetchTimeoutMs);
    try {
      response = await this.opts.fetch(key, abort.signal);
    } catch (err) {
      return { result: { ok: false, reason: `cannot be fetched: ${(err as Error).message}` }, ttlMs: negativeTtlMs };
    } finally {
      clearTimeout(timer);
    }
    const result = await verifyDirectory(response);
    if (!result.ok) return { result, ttlMs: negativeTtlMs };
    const policy = new CachePolicy(
      { url: key, method: 'GET', headers: {} },
      { status: response.status, headers: response.headers },
      { shared: false },
    );
    const ttl = policy.storable() ? policy.timeToLive() : 0;
    return { result, ttlMs: Math.min(maxTtlMs, Math.max(minTtlMs, ttl)) };
  }
}
