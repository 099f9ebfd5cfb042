// A scan's network trace: when each DNS query, TCP connection, TLS handshake and HTTP exchange started and
// ended, and which earlier one it waited for, so the bench can find the critical path (the longest chain of
// operations that each needed the one before). It is kept in memory beside the scan, never in the observations:
// timings are not deterministic and must not reach digested evidence.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TracedOperation } from './types.ts';

export type TraceKind = TracedOperation['kind'];
/**
 * `target`: what was asked (`name TYPE`, `host:port`, or the method and URL of one HTTP hop); `scope`: the probe
 * it ran for; `startMs`, `endMs`: wall time since the trace began; `waitedFor`: the earlier operation whose
 * result it needed, when there was one.
 */
export type TraceEntry = TracedOperation;

/**
 * One chain of work (a probe): the operation that finished last in it. A probe's code issues an operation once
 * what it needs has arrived, so the last one finished before it started is the one it waited for. Branches a
 * probe runs in parallel share the chain, so the attribution is approximate when two finish together.
 */
interface Chain {
  scope: string;
  last: TraceEntry | null;
}

export interface RequestTrace {
  /** Runs `fn` with the operations it starts attributed to `scope`. */
  scope<T>(scope: string, fn: () => T): T;
  /** Starts an entry now, waiting for the current chain's last result; the returned function ends it. */
  begin(kind: TraceKind, target: string): (ok: boolean) => number;
  /** Records that the current chain has also received the result of operation `id` (a shared DNS answer). */
  received(id: number | null): void;
  entries(): readonly TraceEntry[];
}

export function createRequestTrace(): RequestTrace {
  const chains = new AsyncLocalStorage<Chain>();
  const origin = performance.now();
  const now = (): number => Math.round((performance.now() - origin) * 10) / 10;
  const done: TraceEntry[] = [];
  const byId = new Map<number, TraceEntry>();
  let nextId = 1;

  const later = (a: TraceEntry | null, b: TraceEntry | null): TraceEntry | null =>
    a === null ? b : b === null ? a : b.endMs > a.endMs ? b : a;

  return {
    scope: (scope, fn) => chains.run({ scope, last: null }, fn),
    begin(kind, target) {
      const chain = chains.getStore() ?? null;
      const waited = chain?.last ?? null;
      const entry: TraceEntry = {
        id: nextId++,
        kind,
        target,
        scope: chain?.scope ?? null,
        startMs: now(),
        endMs: 0,
        waitedFor: waited?.id ?? null,
        ok: false,
      };
      return (ok) => {
        entry.endMs = now();
        entry.ok = ok;
        done.push(entry);
        byId.set(entry.id, entry);
        if (chain) chain.last = entry;
        return entry.id;
      };
    },
    received(id) {
      const chain = chains.getStore();
      const entry = id === null ? undefined : byId.get(id);
      if (chain && entry) chain.last = later(chain.last, entry);
    },
    entries: () => [...done].sort((a, b) => a.id - b.id),
  };
}

/** Runs `op` as one traced operation; with `onEnd`, learns the entry's id. */
export async function traced<T>(
  trace: RequestTrace | null,
  kind: TraceKind,
  target: string,
  op: () => Promise<T>,
  onEnd: (id: number) => void = () => undefined,
): Promise<T> {
  if (!trace) return op();
  const end = trace.begin(kind, target);
  try {
    const value = await op();
    onEnd(end(true));
    return value;
  } catch (err) {
    onEnd(end(false));
    throw err;
  }
}
