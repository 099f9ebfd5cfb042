// One scan's GET requests: a question asked twice (same URL, request headers, decoding, redirect policy and
// address) is sent once, and its answer (or failure) serves every probe that asks it, the ones asking while it
// is in flight included. Probes read the same site through several facets; without this the scan repeated
// requests whose answers it already held, each costing a slot and a round trip.
//
// The body cap is the reader's, not the server's: without decoding, an answer read under a larger cap gives
// exactly the one a smaller cap would have (the first bytes, `truncated` when there were more), and an answer
// that was not cut serves any larger cap. With decoding the cap bounds both sides, so it is part of the question.
//
// Never shared: other methods, and requests marked `fresh` (answers measured by repeating them). As in
// dns-memo.ts, the shared request (shared-operation.ts) is cancelled, and forgotten, only when every caller has
// given up.
import { shareOperation, type SharedOperation } from './shared-operation.ts';
import type { HttpExchange, HttpRequestOptions } from './types.ts';

/** One exchange as sent, with the trace entry of its final hop when the scan is traced. */
export interface Sent {
  exchange: HttpExchange;
  hop: number | undefined;
}

export interface RequestMemoDeps {
  /** Sends a request on the wire. */
  send(url: string, opts: HttpRequestOptions): Promise<Sent>;
  /** The address a request goes to: the pinned one, else the host's first allowed address; null when unknown. */
  addressOf(url: URL, opts: HttpRequestOptions): Promise<string | null>;
  /** The current chain of work received a hop that was sent for another (the trace's dependency). */
  received(hop: number | undefined): void;
  /** The configured cap on body bytes, which a request's own cap never exceeds. */
  maxBodyBytes: number;
}

interface Entry {
  cap: number;
  sent: SharedOperation<Sent>;
}

/** The answer `sent` (read under a cap at least `cap`) gives a reader capped at `cap`. */
function underCap(sent: Sent, cap: number): HttpExchange {
  const { exchange } = sent;
  if (exchange.body.length <= cap) return { ...exchange };
  return { ...exchange, body: exchange.body.subarray(0, cap), truncated: true, wireBytes: cap };
}

/**
 * Everything that can change the answer, but the cap when it is the reader's alone. The URL as written: the
 * network layer refuses some spellings that parse to the same URL as an accepted one.
 */
function questionOf(url: string, opts: HttpRequestOptions, address: string, cap: number): string {
  const headers = Object.entries(opts.headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  const decompress = opts.decompress === true;
  return JSON.stringify([url, headers, decompress, opts.followRedirects === true, address, decompress && cap]);
}

/** The address a request goes to when it may be shared (a GET, not fresh, to a URL that parses), else null. */
async function sharedAt(deps: RequestMemoDeps, url: string, opts: HttpRequestOptions): Promise<string | null> {
  if ((opts.method ?? 'GET') !== 'GET' || opts.fresh === true) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return deps.addressOf(parsed, opts);
}

export interface RequestMemo {
  request(url: string, opts?: HttpRequestOptions): Promise<HttpExchange>;
  /** Forgets every answer: once the scan's connections are closed, a request is refused as the client refuses it. */
  close(): void;
}

export function memoiseRequests(deps: RequestMemoDeps): RequestMemo {
  const asked = new Map<string, Entry[]>();
  let closed = false;

  function start(key: string, cap: number, url: string, opts: HttpRequestOptions): Entry {
    const entry: Entry = {
      cap,
      sent: shareOperation(
        (signal) => deps.send(url, { ...opts, maxBodyBytes: cap, signal }),
        () => {
          asked.set(
            key,
            (asked.get(key) ?? []).filter((e) => e !== entry),
          );
        },
      ),
    };
    asked.set(key, [...(asked.get(key) ?? []), entry]);
    return entry;
  }

  async function ask(key: string, cap: number, url: string, opts: HttpRequestOptions): Promise<HttpExchange> {
    const waited = new Set<Entry>();
    for (;;) {
      const entries = asked.get(key) ?? [];
      const covering = entries.find((e) => e.cap >= cap);
      if (covering) {
        const sent = await covering.sent.wait(opts.signal);
        deps.received(sent.hop);
        return underCap(sent, cap);
      }
      // An answer read under a smaller cap serves this one when it was not cut: wait for one in flight.
      const smaller = entries.find((e) => !waited.has(e));
      if (!smaller) break;
      waited.add(smaller);
      const sent = await smaller.sent.wait(opts.signal).catch((err: unknown) => {
        if (opts.signal?.aborted) throw err;
        return null;
      });
      if (sent && !sent.exchange.truncated) {
        deps.received(sent.hop);
        return { ...sent.exchange };
      }
    }
    return (await start(key, cap, url, opts).sent.wait(opts.signal)).exchange;
  }

  return {
    async request(url, opts = {}) {
      const address = closed ? null : await sharedAt(deps, url, opts);
      if (address === null) return (await deps.send(url, opts)).exchange;
      const cap = Math.min(opts.maxBodyBytes ?? deps.maxBodyBytes, deps.maxBodyBytes);
      return ask(questionOf(url, opts, address, cap), cap, url, opts);
    },
    close() {
      closed = true;
      asked.clear();
    },
  };
}
