// One time limit plus the caller's signal, merged into a single AbortSignal that remembers which of the two
// fired, so a failure can be reported as a timeout (the host was slow) or as aborted (the scan gave up).
import { NetError, type NetErrorCode } from './types.ts';
import { onAbort } from './on-abort.ts';

export interface Deadline {
  readonly signal: AbortSignal;
  /** The error to report now that the signal has fired. */
  failure(timeoutCode?: NetErrorCode): NetError;
  /** Throws that error if the signal has already fired. */
  check(timeoutCode?: NetErrorCode): void;
  clear(): void;
}

export function createDeadline(ms: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  let unsubscribe = (): void => undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${ms} ms`));
  }, ms);
  if (outer?.aborted) onOuterAbort();
  else if (outer) unsubscribe = onAbort(outer, onOuterAbort);

  const failure = (timeoutCode: NetErrorCode = 'timeout'): NetError =>
    timedOut
      ? new NetError(timeoutCode, `no answer within ${ms} ms`)
      : new NetError('aborted', 'the caller aborted the operation');

  return {
    signal: controller.signal,
    failure,
    check(timeoutCode) {
      if (controller.signal.aborted) throw failure(timeoutCode);
    },
    clear() {
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
