// One time limit plus the caller's signal, merged into a single AbortSignal that remembers which of the two
// fired, so a failure can be reported as a timeout (the host was slow) or as aborted (the scan gave up).
// The limit runs on host time (host-clock.ts): a process too busy to read the reply does not make the host slow.
import { NetError, type NetErrorCode } from './types.ts';
import { onAbort } from './on-abort.ts';
import { watchHost } from './host-clock.ts';

export interface Deadline {
  readonly signal: AbortSignal;
  /** The error to report now that the signal has fired. */
  failure(timeoutCode?: NetErrorCode): NetError;
  /** Throws that error if the signal has already fired. */
  check(timeoutCode?: NetErrorCode): void;
  /** Host time since the deadline began (what timings report, so they too do not depend on load). */
  elapsed(): number;
  clear(): void;
}

export function createDeadline(ms: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  let unsubscribe = (): void => undefined;
  const watch = watchHost();
  const expire = (): void => {
    const left = ms - watch.elapsed();
    if (left > 0) {
      timer = setTimeout(expire, left);
      return;
    }
    watch.stop();
    timedOut = true;
    controller.abort(new Error(`no answer within ${ms} ms`));
  };
  let timer = setTimeout(expire, ms);
  const onOuterAbort = (): void => {
    clearTimeout(timer);
    watch.stop();
    controller.abort(outer?.reason);
  };
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
    elapsed: () => watch.elapsed(),
    clear() {
      clearTimeout(timer);
      watch.stop();
      unsubscribe();
    },
  };
}
