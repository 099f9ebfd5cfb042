// An operation several callers share (one scan's DNS question, one scan's GET): it runs under none of their
// signals, each waits under its own, and it is cancelled only when every caller waiting on it gave up before it
// settled. One caller giving up never fails another, and nothing outlives the callers that wanted it.
import { callerAborted, waitUnder } from './on-abort.ts';

export interface SharedOperation<T> {
  /** The answer, waited for under the caller's own signal; a caller without one never gives up. */
  wait(signal: AbortSignal | undefined): Promise<T>;
}

/** Starts `run` at once; `forget` runs when it is cancelled, so that its owner asks afresh next time. */
export function shareOperation<T>(run: (signal: AbortSignal) => Promise<T>, forget: () => void): SharedOperation<T> {
  const cancel = new AbortController();
  const answer = run(cancel.signal);
  let settled = false;
  /** Callers that may still give up; at zero before the answer, the operation is cancelled. */
  let waiting = 0;
  const settle = (): void => {
    settled = true;
  };
  answer.then(settle, settle);

  const leave = (): void => {
    waiting -= 1;
    if (waiting > 0 || settled) return;
    forget();
    cancel.abort();
  };

  return {
    wait(signal) {
      if (signal?.aborted) return Promise.reject(callerAborted());
      waiting += 1;
      return waitUnder(answer, signal, leave);
    },
  };
}
