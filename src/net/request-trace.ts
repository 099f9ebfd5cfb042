// A scan's network trace: when each DNS query, TCP connection, TLS handshake and HTTP exchange was asked for,
// started and ended, and which earlier one it waited for, so the bench can find the critical path (the longest
// chain of operations that each needed the one before). It is kept in memory beside the scan, never in the
// observations: timings are not deterministic and must not reach digested evidence.
import { AsyncLocalStorage } from 'node:async_hooks';
import { normaliseName } from '../lib/domain-name.ts';
import type { TracedOperation } from './types.ts';

export type TraceKind = TracedOperation['kind'];
/**
 * `target`: what was asked (`name TYPE`, `host:port`, or the method and URL of one HTTP hop); `scope`: the probe
 * it ran for; `askedMs`, `startMs`, `endMs`: wall time since the trace began; `waitedFor`: the earlier operation
 * whose result it needed, when there was one.
 */
export type TraceEntry = TracedOperation;

/**
 * One chain of work (a probe): the operation that finished last in it. A probe's code asks for an operation once
 * what it needs has arrived, so the last one finished before it asked is the one it waited for. Branches a probe
 * runs in parallel share the chain, so the attribution is approximate when two finish together.
 */
interface Chain {
  scope: string;
  last: TraceEntry | null;
}

/** What the current chain had received when it asked for an operation, before the operation queued for a slot. */
export interface Asked {
  readonly chain: Chain | null;
  readonly waited: TraceEntry | null;
  readonly askedMs: number;
}

export interface BeginFrom {
  /** When and after what the caller asked; by default, now and after the chain's last result. */
  asked?: Asked;
  /** The operation this one continues (a redirect's previous hop), instead of what the chain had. */
  previous?: number;
  /** The host whose addresses the operation needed: it waited for their DNS answers too. */
  host?: string;
}

export interface RequestTrace {
  /** Runs `fn` with the operations it starts attributed to `scope`. */
  scope<T>(scope: string, fn: () => T): T;
  /** Notes that the current chain asks for an operation now, before it waits for anything of the scan's own. */
  ask(): Asked;
  /** Starts an entry now (its slot held, its address known); the returned function ends it. */
  begin(kind: TraceKind, target: string, from?: BeginFrom): (ok: boolean) => number;
  /** Records that `name`'s addresses came (partly) from DNS query `id` (an A or AAAA answer). */
  answered(name: string, id: number): void;
  /** Records that the current chain has received `host`'s addresses (possibly looked up for another probe). */
  resolved(host: string): void;
  /** Records that the current chain has received operation `id`'s result (an answer sent for another chain). */
  received(id: number): void;
  entries(): readonly TraceEntry[];
}

export function createRequestTrace(): RequestTrace {
  const chains = new AsyncLocalStorage<Chain>();
  const origin = performance.now();
  const now = (): number => Math.round((performance.now() - origin) * 10) / 10;
  const done: TraceEntry[] = [];
  const byId = new Map<number, TraceEntry>();
  const addresses = new Map<string, TraceEntry[]>();
  let nextId = 1;

  const later = (a: TraceEntry | null, b: TraceEntry | null): TraceEntry | null =>
    a === null ? b : b === null ? a : b.endMs > a.endMs ? b : a;
  const answersOf = (host: string): TraceEntry[] => addresses.get(normaliseName(host)) ?? [];
  const ask = (): Asked => {
    const chain = chains.getStore() ?? null;
    return { chain, waited: chain?.last ?? null, askedMs: now() };
  };

  return {
    scope: (scope, fn) => chains.run({ scope, last: null }, fn),
    ask,
    begin(kind, target, from = {}) {
      const asked = from.asked ?? ask();
      const startMs = now();
      let waited = from.previous === undefined ? asked.waited : (byId.get(from.previous) ?? null);
      // Only answers that had arrived: a query still in flight is not what this operation waited for.
      for (const answer of from.host === undefined ? [] : answersOf(from.host))
        if (answer.endMs <= startMs) waited = later(waited, answer);
      const entry: TraceEntry = {
        id: nextId++,
        kind,
        target,
        scope: asked.chain?.scope ?? null,
        askedMs: Math.min(asked.askedMs, startMs),
        startMs,
        endMs: 0,
        waitedFor: waited?.id ?? null,
        ok: false,
      };
      return (ok) => {
        entry.endMs = now();
        entry.ok = ok;
        done.push(entry);
        byId.set(entry.id, entry);
        if (asked.chain) asked.chain.last = later(asked.chain.last, entry);
        return entry.id;
      };
    },
    answered(name, id) {
      const entry = byId.get(id);
      const key = normaliseName(name);
      if (entry) addresses.set(key, [...(addresses.get(key) ?? []), entry]);
    },
    resolved(host) {
      const chain = chains.getStore();
      if (chain) for (const answer of answersOf(host)) chain.last = later(chain.last, answer);
    },
    received(id) {
      const chain = chains.getStore();
      const entry = byId.get(id);
      if (chain && entry) chain.last = later(chain.last, entry);
    },
    entries: () => [...done].sort((a, b) => a.id - b.id),
  };
}

/** Runs `op` as one traced operation, asked and started now; with `onEnd`, learns the entry's id. */
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
