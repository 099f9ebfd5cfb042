// The critical-path bench's yardstick over a scan's network trace (src/net/request-trace.ts): the longest chain of
// operations that each waited for the one before.
import type { TracedOperation } from '../src/net/types.ts';

export interface Chain {
  ms: number;
  operations: TracedOperation[];
}

/**
 * How long after what it waited for ended (the trace's start when nothing) the probe asked for `op`: its own work
 * in between (parsing what arrived), which is part of any chain through it. A wait for a slot comes after the ask
 * and is not counted.
 */
function lead(op: TracedOperation, byId: ReadonlyMap<number, TracedOperation>): number {
  const before = op.waitedFor === null ? undefined : byId.get(op.waitedFor);
  return Math.max(0, op.askedMs - (before?.endMs ?? 0));
}

const duration = (op: TracedOperation): number => op.endMs - op.startMs;

/**
 * The longest chain of operations that each waited for the one before: their durations, and the probe's own work
 * before each was asked for, added up. It is how long the scan would take if no operation ever waited for a slot.
 */
export function criticalPath(trace: readonly TracedOperation[]): Chain {
  const byId = new Map(trace.map((op) => [op.id, op]));
  const longest = new Map<number, Chain>();
  let best: Chain = { ms: 0, operations: [] };
  // An operation waits only for one that ended before it began, so in order of id its predecessor comes first.
  for (const op of [...trace].sort((a, b) => a.id - b.id)) {
    const before = op.waitedFor === null ? undefined : longest.get(op.waitedFor);
    const chain = {
      ms: (before?.ms ?? 0) + lead(op, byId) + duration(op),
      operations: [...(before?.operations ?? []), op],
    };
    longest.set(op.id, chain);
    if (chain.ms > best.ms) best = chain;
  }
  return best;
}
