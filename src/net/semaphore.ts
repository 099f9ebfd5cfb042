// A counting semaphore: at most `limit` connections of one scan are in flight at once, so a scan never
// hammers the host it checks. Waiters leave the queue when their signal aborts.
import { NetError } from './types.ts';
import { onAbort } from './on-abort.ts';

export interface Semaphore {
  /** Waits for a slot; the returned function gives it back (calling it twice is harmless). */
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly inFlight: number;
}

export function createSemaphore(limit: number): Semaphore {
  let inFlight = 0;
  const waiting: Array<() => void> = [];

  const releaser = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else inFlight--;
    };
  };

  return {
    get inFlight() {
      return inFlight;
    },
    acquire(signal) {
      if (signal?.aborted)
        return Promise.reject(new NetError('aborted', 'aborted while waiting for a connection slot'));
      if (inFlight < limit) {
        inFlight++;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve, reject) => {
        // The slot passes straight from the releasing holder to this waiter, so inFlight is unchanged.
        const grant = (): void => {
          unsubscribe();
          resolve(releaser());
        };
        const unsubscribe = signal
          ? onAbort(signal, () => {
              waiting.splice(waiting.indexOf(grant), 1);
              reject(new NetError('aborted', 'aborted while waiting for a connection slot'));
            })
          : () => undefined;
        waiting.push(grant);
      });
    },
  };
}
