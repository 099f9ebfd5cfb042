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
  /**
   * Quick Scans one client may have running at once, and as many waiting; one more is refused at once (issue 31
   * item 7: one address held every slot with scans of hosts that never answer).
   */
  perClient?: number;
}

interface Waiter {
  kind: ScanKind;
  /** Whose scan it is (Quick Scans only; paid validations are not bound per client). */
  client: string | undefined;
  grant: () => void;
}

export interface ScanSlots {
  /**
   * Waits for a slot (or throws ScansBusyError); the returned function gives it back, once. A Quick Scan names its
   * client, whose own bound it keeps.
   */
  acquire(kind: ScanKind, client?: string): Promise<() => void>;
  /** Waits (without limit) for a batch slot, given only while no interactive scan waits for one. */
  acquireBatch(): Promise<() => void>;
  /** Batch items at once from now on (src/service/batch-pace.ts); items running over it finish. */
  setBatchLimit(limit: number): void;
  /** The most batch items that ran at once since the last call. */
  takeBatchPeak(): number;
  readonly running: number;
  readonly waiting: number;
  readonly runningBatch: number;
}

/** The batch slots: at most `limit` at once, each given only while `interactiveIdle()` says so. */
function batchLane(initialLimit: number, interactiveIdle: () => boolean) {
  let limit = initialLimit;
  let running = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  const grant = (): void => {
    while (waiting.length > 0 && running < limit && interactiveIdle()) {
      running++;
      peak = Math.max(peak, running);
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
    takePeak: (): number => {
      const seen = peak;
      peak = running;
      return seen;
    },
    setLimit: (next: number): void => {
      limit = next;
      grant();
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
  const perClient = opts.perClient ?? Infinity;
  /** Quick Scans running per client. */
  const byClient = new Map<string, number>();
  const runningFor = (client: string | undefined) => (client === undefined ? 0 : (byClient.get(client) ?? 0));
  const fits = (kind: ScanKind, client?: string): boolean =>
    running < opts.limit &&
    (kind === 'full' || (runningQuick < opts.limit - reserved && runningFor(client) < perClient));
  const take = (kind: ScanKind, client: string | undefined): void => {
    running++;
    if (kind === 'quick') runningQuick++;
    if (client !== undefined) byClient.set(client, runningFor(client) + 1);
  };

  const releaser = (kind: ScanKind, client: string | undefined): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      if (kind === 'quick') runningQuick--;
      if (client !== undefined) {
        const left = runningFor(client) - 1;
        if (left > 0) byClient.set(client, left);
        else byClient.delete(client);
      }
      // Full Validations first, then in arrival order among the clients below their own bound: a client's
      // waiting scan never holds up another client's.
      const next = queue.find((w) => w.kind === 'full' && fits('full')) ?? queue.find((w) => fits(w.kind, w.client));
      if (next) {
        queue.splice(queue.indexOf(next), 1);
        take(next.kind, next.client);
        next.grant();
      }
      batch.grant();
    };
  };
  const waitingFor = (client?: string) => queue.filter((w) => client !== undefined && w.client === client).length;

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
    setBatchLimit: batch.setLimit,
    takeBatchPeak: batch.takePeak,
    acquire(kind, client) {
      const owner = kind === 'quick' ? client : undefined;
      if (fits(kind, owner) && !queue.some((w) => w.kind === kind && fits(w.kind, w.client))) {
        take(kind, owner);
        return Promise.resolve(releaser(kind, owner));
      }
      // Only Quick Scans are turned away by a full queue (or their client's full share of it): paid validations
      // are few, and go first anyway.
      if (kind === 'quick' && (queue.length >= opts.queueLength || waitingFor(owner) >= perClient)) {
        return Promise.reject(new ScansBusyError(opts.retryAfterSeconds));
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          kind,
          client: owner,
          grant: () => {
            clearTimeout(timer);
            resolve(releaser(kind, owner));
          },
        };
        const timer = setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(new ScansBusyError(opts.retryAfterSeconds));
          batch.grant();
        }, opts.maxWaitMs);
        queue.push(waiter);
      });
    },
  };
}
