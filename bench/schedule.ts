// The critical-path bench's two yardsticks over a scan's network trace (src/net/request-trace.ts): the longest
// chain of operations that each waited for the one before, and the length of an ideal schedule of the same
// operations under the scan's limit on operations in flight.
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

/** Operations that hold one of the scan's slots (connection set-ups and requests); DNS queries do not. */
const holdsSlot = (op: TracedOperation): boolean => op.kind !== 'dns';

/**
 * The length of a list schedule of `trace` with at most `slots` slot-holding operations at once: each operation
 * is ready its lead after the one it waited for has ended, and a free slot goes to the ready operation with the
 * longest chain still ahead of it (its own duration plus the longest chain of operations that wait for it).
 */
export function idealScheduleMs(trace: readonly TracedOperation[], slots: number): number {
  const ops = [...trace].sort((a, b) => a.id - b.id);
  const byId = new Map(ops.map((op) => [op.id, op]));
  const waiters = new Map<number, TracedOperation[]>();
  for (const op of ops)
    if (op.waitedFor !== null) waiters.set(op.waitedFor, [...(waiters.get(op.waitedFor) ?? []), op]);
  const ahead = new Map<number, number>();
  // Waiters have larger ids than what they waited for, so walking ids downwards sees every waiter first.
  for (const op of [...ops].reverse()) {
    const after = Math.max(0, ...(waiters.get(op.id) ?? []).map((w) => lead(w, byId) + ahead.get(w.id)!));
    ahead.set(op.id, duration(op) + after);
  }
  let ready = ops
    .filter((op) => op.waitedFor === null || !byId.has(op.waitedFor))
    .map((op) => ({ op, at: lead(op, byId) }));
  const running: { op: TracedOperation; endsAt: number }[] = [];
  let now = 0;
  let end = 0;
  while (ready.length > 0 || running.length > 0) {
    const startable = ready
      .filter((r) => r.at <= now)
      .sort((a, b) => ahead.get(b.op.id)! - ahead.get(a.op.id)! || a.op.id - b.op.id);
    for (const r of startable) {
      if (holdsSlot(r.op) && running.filter((x) => holdsSlot(x.op)).length >= slots) continue;
      running.push({ op: r.op, endsAt: now + duration(r.op) });
      ready = ready.filter((x) => x !== r);
    }
    const next = Math.min(...running.map((x) => x.endsAt), ...ready.filter((r) => r.at > now).map((r) => r.at));
    if (!Number.isFinite(next)) break;
    now = next;
    for (const done of running.filter((x) => x.endsAt <= now)) {
      running.splice(running.indexOf(done), 1);
      end = Math.max(end, done.endsAt);
      ready.push(...(waiters.get(done.op.id) ?? []).map((op) => ({ op, at: done.endsAt + lead(op, byId) })));
    }
  }
  return end;
}
