// One queue's jobs taken while a batch slot is free: the slot is held first, then a job asked for, so an instance
// never takes more background work than its slots (interactive scans keep priority: src/service/scan-slots.ts).
// An idle worker asks again after `pollMs`, or at once when woken (work was just enqueued here). Batch items and
// monitor runs each have one.
import type { FetchedJob, JobQueue } from '../batches/job-queue.ts';
import type { Logger } from '../lib/log.ts';
import type { ScanSlots } from './scan-slots.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SlotWorker<T> {
  private stopped = false;
  private running = 0;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly opts: {
      queue: JobQueue;
      name: string;
      slots: Pick<ScanSlots, 'acquireBatch'>;
      pollMs: number;
      log: Logger;
      handle(job: FetchedJob<T>): Promise<void>;
    },
  ) {}

  start(): void {
    this.loop ??= this.dispatch();
  }

  /** Jobs being worked on now. */
  get inFlight(): number {
    return this.running;
  }

  /** Asks for a job now rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /** Takes no more jobs and waits for the ones running. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    while (this.running > 0) await sleep(50);
  }

  private async dispatch(): Promise<void> {
    const { queue, name, slots, log } = this.opts;
    while (!this.stopped) {
      const release = await slots.acquireBatch();
      let job: FetchedJob<T> | null = null;
      try {
        if (!this.stopped) job = await queue.fetch<T>(name);
      } catch (err) {
        log.warn({ err: (err as Error).message, queue: name }, 'worker: the job queue does not answer; trying again');
      }
      if (!job) {
        release();
        if (!this.stopped) await new Promise<void>((r) => setTimeout((this.wakeUp = r), this.opts.pollMs));
        continue;
      }
      this.running++;
      void this.opts.handle(job).finally(() => {
        this.running--;
        release();
      });
    }
  }
}
