// Closed-loop HTTPS load through undici: a fixed number of connections, each sending its next request as soon
// as it has read the previous answer. Answers are read and not decoded. Measured here against a plain Node
// HTTPS server, undici's client spent 31 us of CPU per 181-byte answer and 32 us per 7.6 KB of random bytes;
// autocannon (the bench's load generator before) spent 30 us per 7.6 KB of ASCII and 128 us per 7.6 KB of random
// bytes, so every case that sent the Quick Scan's br answer ran at the client's speed, not the server's. Answers
// are taken through `dispatch` callbacks, not `request`: no stream per answer and no header object built from the
// raw lines. Against a server sending 20 headers and 6.5 KB, that client spent 55-65 us per answer where
// `request` spent 71-103 us (alternating runs, one machine, one session).
import { Pool, type Dispatcher } from 'undici';

export interface LoadOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string;
  ca: string;
  connections: number;
}

export interface LoadResult {
  requests: number;
  /** Answers per second over the load's wall time. */
  rate: number;
  /** Latency of an answer, from sending the request to reading the last byte, in ms. */
  p50Ms: number;
  p99Ms: number;
  /** Body bytes per answer, as sent (coded where the answer was). */
  bodyBytes: number;
  non2xx: number;
  errors: number;
}

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Loads `url` for `durationMs`, or until `amount` answers when given. */
export async function load(
  url: string,
  options: LoadOptions,
  until: { durationMs: number } | { amount: number },
): Promise<LoadResult> {
  const { origin, pathname, search } = new URL(url);
  const pool = new Pool(origin, {
    connections: options.connections,
    // The bench's servers all present the service's certificate for localhost.
    connect: { ca: options.ca, servername: 'localhost' },
  });
  const request: Dispatcher.DispatchOptions = {
    path: pathname + search,
    method: options.method,
    headers: options.headers,
    body: options.body,
  };
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let bytes = 0;
  let started = 0;
  const t0 = performance.now();
  const end = 'durationMs' in until ? t0 + until.durationMs : Infinity;
  const more = () => ('amount' in until ? started < until.amount : performance.now() < end);
  /** One answer, read through undici's handler callbacks: its raw header lines and body chunks, never parsed. */
  const answer = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      let status = 0;
      pool.dispatch(request, {
        onConnect: () => {},
        onHeaders: (statusCode) => {
          status = statusCode;
          return true;
        },
        onData: (chunk) => {
          bytes += chunk.length;
          return true;
        },
        onComplete: () => {
          if (status < 200 || status > 299) non2xx += 1;
          latencies.push(performance.now() - sent);
          resolve();
        },
        onError: () => {
          errors += 1;
          resolve();
        },
      });
    });
  const loop = async () => {
    while (more()) {
      started += 1;
      await answer();
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, loop));
  } finally {
    await pool.close();
  }
  const wallS = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rate: latencies.length / wallS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    bodyBytes: bytes / Math.max(1, latencies.length),
    non2xx,
    errors,
  };
}
