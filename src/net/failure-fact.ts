// How a probe turns a failed network operation into a fact. A host that refuses, resets, times out or sends
// garbage is evidence about the domain: its NetError code is the fact. But when nothing could be observed at
// all (the scan's deadline fired, or the resolver never answered about the name) there is no fact to record:
// the failure is rethrown so the engine marks the probe `timeout` and its rules `error`, never `fail`.
// Anything that is not a NetError is a bug in the probe and propagates too.
import { NetError } from './types.ts';

const NOT_OBSERVED = new Set<string>(['dns_timeout', 'aborted']);

/** True for a failure that tells nothing about the domain (and must not become a fact). */
export function notObserved(err: unknown): boolean {
  return !(err instanceof NetError) || NOT_OBSERVED.has(err.code);
}

export function failureFact(err: unknown): string {
  if (notObserved(err)) throw err;
  return (err as NetError).code;
}
