// One service-wide bound on the scans that run at once. A scan beyond it waits in a short queue; past the queue
// (or past the wait) it is refused with ScansBusyError, which the API answers with 503 and Retry-After, so a
// flood from many addresses (each under its rate limit) cannot starve the process. Paid Full Validations go
// before queued Quick Scans, and part of the bound is theirs alone, so a flood of free scans never holds them up.
// Batch items have a bound of their own beside it: they never hold an interactive slot, and one waits (without
// limit, never refused) while any interactive scan waits or the interactive bound is reached.
export type ScanKind = 'quick' | 'full';
/** Who a scan runs for: a caller waiting on the answer, or a batch item (src/service/batches.ts). */
export type ScanLane = 'interactive' | 'batch';

/** Every slot is taken and the queue is full, or the wait ran out. */
export class ScansBusyError extends Error {
  override name = 'ScansBusyError';
  constructor(readonly retryAfterSeconds: number) {
    super(`the service is running as many scans as it can; try again in ${retryAfterSeconds} s`);
  }
}

export interface ScanSlotOptions {
  /** Scans running at once, all kinds. */
  limit: number;
  /** Slots only Full Validations may take (at most limit - 1, so Quick Scans always have one). */
  reservedForFull: number;
  /** Scans waiting for a slot before the next is refused. */
  queueLength: number;
  /** Longest wait in the queue before the scan is refused. */
  maxWaitMs: number;
  /** What Retry-After says to a refused caller. */
  retryAfterSeconds: number;
  /** Batch items scanning at once on this instance. */
  batchLimit?: number;
}

interface Waiter {
  kind: ScanKind;
  grant: () => void;
}

export interface ScanSlots {
  /** Waits for a slot (or throws ScansBusyError); the returned function gives it back, once. */
  acquire(kind: ScanKind): Promise<() => void>;
  /** Waits (without limit) for a batch slot, given only while no interactive scan waits for one. */
  acquireBatch(): Promise<() => void>;
  readonly running: number;
  readonly waiting: number;
  readonly runningBatch: number;
}

/** The batch slots: at most `limit` at once, each given only while `interactiveIdle()` says so. */
function batchLane(limit: number, interactiveIdle: () => boolean) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const grant = (): void => {
    while (waiting.length > 0 && running < limit && interactiveIdle()) {
      running++;
      waiting.shift()!();
    }
  };
  const releaser = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      grant();
    };
  };
  return {
    grant,
    get running() {
      return running;
    },
    acquire: (): Promise<() => void> =>
      new Promise((resolve) => {
        waiting.push(() => resolve(releaser()));
        grant();
      }),
  };
}

export function createScanSlots(opts: ScanSlotOptions): ScanSlots {
  const reserved = Math.min(opts.reservedForFull, opts.limit - 1);
  let running = 0;
  let runningQuick = 0;
  const queue: Waiter[] = [];
  // A batch item goes only while no interactive scan waits and the interactive bound is not reached.
  const batch = batchLane(opts.batchLimit ?? 0, () => queue.length === 0 && running < opts.limit);
  const grantBatch = batch.grant;
  const fits = (kind: ScanKind): boolean =>
    running < opts.limit && (kind === 'full' || runningQuick < opts.limit - reserved);
  const take = (kind: ScanKind): void => {
    running++;
    if (kind === 'quick') runningQuick++;
  };

  const releaser = (kind: ScanKind): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      if (kind === 'quick') runningQuick--;
      // Full Validations first, then in arrival order.
      const next = queue.find((w) => w.kind === 'full' && fits('full')) ?? queue.find((w) => fits(w.kind));
      if (next) {
        queue.splice(queue.indexOf(next), 1);
        take(next.kind);
        next.grant();
      }
      grantBatch();
    };
  };

  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    get runningBatch() {
      return batch.running;
    },
    acquireBatch: batch.acquire,
    acquire(kind) {
      if (fits(kind) && !queue.some((w) => w.kind === kind)) {
        take(kind);
        return Promise.resolve(releaser(kind));
      }
      // Only Quick Scans are turned away by a full queue: paid validations are few, and go first anyway.
      if (kind === 'quick' && queue.length >= opts.queueLength) {
        return Promise.reject(new ScansBusyError(opts.retryAfterSeconds));
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          kind,
          grant: () => {
            clearTimeout(timer);
            resolve(releaser(kind));
          },
        };
        const timer = setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(new ScansBusyError(opts.retryAfterSeconds));
          grantBatch();
        }, opts.maxWaitMs);
        queue.push(waiter);
      });
    },
  };
}
