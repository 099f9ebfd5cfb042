// Every in-flight operation of a scan waits on the scan's one signal. Adding a listener per operation would hang
// dozens on that signal (and trip Node's leak warning), so each signal gets one real listener that calls the
// operations' callbacks, and an operation that ends takes its callback out again.
import { NetError } from './types.ts';
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `fn` once when `signal` aborts; the returned function unsubscribes. The caller checks `aborted` first. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (!callbacks) {
    const created = new Set<() => void>();
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const callback of [...created]) callback();
      },
      { once: true },
    );
    callbacks = created;
  }
  const own = callbacks;
  own.add(fn);
  return () => {
    own.delete(fn);
  };
}

/** The error a caller gets when its own signal ends its wait. */
export const callerAborted = (): NetError => new NetError('aborted', 'the caller aborted the operation');

/**
 * What `pending` settles with, unless the caller's signal fires first (a caller without one never gives up);
 * `gaveUp` runs when it does, before the caller hears so.
 */
export function waitUnder<T>(pending: Promise<T>, signal: AbortSignal | undefined, gaveUp?: () => void): Promise<T> {
  if (!signal) return pending;
  if (signal.aborted) return Promise.reject(callerAborted());
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = onAbort(signal, () => {
      gaveUp?.();
      reject(callerAborted());
    });
    pending.then(resolve, reject).finally(unsubscribe);
  });
}
