// The job engine every instance shares: pg-boss over the queue database (PostgreSQL, or PGlite embedded).
// Jobs are written with the rows they are about, in one transaction (`enqueue` takes the caller's transaction).
// A job whose instance died stays active until its expiry, then pg-boss's maintenance puts it back for another
// instance to take; one that keeps failing ends in its queue's dead letter queue. This module only adapts
// pg-boss to the queue database; what a job means is the caller's.
import type PgBoss from 'pg-boss';
import { lazyRequire } from '../lib/lazy-require.ts';
import type { EngineDb, QueueDatabase } from './queue-database.ts';

const pgBoss = lazyRequire<typeof import('pg-boss')>('pg-boss');

/** How long stopping waits for running handlers before failing them back to the queue. */
const STOP_TIMEOUT_MS = 10_000;

export interface JobQueueOptions {
  /** How often pg-boss looks for expired jobs and sweeps old ones (s); also how soon a dead instance's jobs return. */
  maintenanceSeconds: number;
  /** Whether this instance runs the engine's cron scheduler (`schedule`). */
  schedule?: boolean;
  onError(err: Error): void;
}

export interface QueueSpec {
  name: string;
  /** Failed attempts a job gets before it goes to `deadLetter`. */
  retryLimit: number;
  retryDelaySeconds: number;
  deadLetter?: string;
}

export interface NewJob<T extends object> {
  data: T;
  priority?: number;
  /** Seconds a fetched job may stay active before the engine takes it back. */
  expireInSeconds: number;
  /** Not before this time (deferred jobs). */
  startAfter?: Date;
}

export interface FetchedJob<T> {
  id: string;
  data: T;
}

export class JobQueue {
  private constructor(
    readonly db: QueueDatabase,
    private readonly boss: PgBoss,
  ) {}

  static async start(db: QueueDatabase, opts: JobQueueOptions): Promise<JobQueue> {
    const PgBossClass = pgBoss();
    const boss = new PgBossClass({
      db: db.engine,
      schema: db.engineSchema,
      maintenanceIntervalSeconds: opts.maintenanceSeconds,
      schedule: opts.schedule ?? true,
      supervise: true,
    });
    boss.on('error', (err) => opts.onError(err));
    await boss.start();
    return new JobQueue(db, boss);
  }

  /**
   * Starts the engine and creates its queues (`prepare`) while no other instance does: pg-boss is not safe for
   * two instances setting up one database at the same moment (one fails on a duplicate schema, or two queue
   * creations deadlock), which is how a fleet starts after a deploy.
   */
  static open(
    db: QueueDatabase,
    opts: JobQueueOptions,
    prepare: (queue: JobQueue) => Promise<void>,
  ): Promise<JobQueue> {
    return db.exclusive(async () => {
      const queue = await JobQueue.start(db, opts);
      try {
        await prepare(queue);
      } catch (err) {
        // An engine left running would keep polling a database about to close, and keep the process alive.
        await queue.stop();
        throw err;
      }
      return queue;
    });
  }

  /** Creates the queue (and its dead letter queue) unless it exists; instances starting together may both ask. */
  async ensureQueue(spec: QueueSpec): Promise<void> {
    if (spec.deadLetter && !(await this.boss.getQueue(spec.deadLetter))) await this.create(spec.deadLetter, {});
    if (await this.boss.getQueue(spec.name)) return;
    await this.create(spec.name, {
      retryLimit: spec.retryLimit,
      retryDelay: spec.retryDelaySeconds,
      ...(spec.deadLetter ? { deadLetter: spec.deadLetter } : {}),
    });
  }

  private async create(name: string, options: Omit<PgBoss.Queue, 'name'>): Promise<void> {
    try {
      await this.boss.createQueue(name, { name, ...options });
    } catch (err) {
      // Another instance created it between our look and our insert.
      if (!(await this.boss.getQueue(name))) throw err;
    }
  }

  /** Writes jobs, inside the caller's transaction when `tx` is given. */
  async enqueue<T extends object>(name: string, jobs: readonly NewJob<T>[], tx?: EngineDb): Promise<void> {
    if (jobs.length === 0) return;
    const rows = jobs.map((j) => ({
      name,
      data: j.data,
      priority: j.priority ?? 0,
      expireInSeconds: j.expireInSeconds,
      ...(j.startAfter ? { startAfter: j.startAfter } : {}),
    }));
    await this.boss.insert(rows, tx ? { db: tx } : {});
  }

  /** Takes the next job (highest priority, then oldest), or null when none is due. */
  async fetch<T>(name: string): Promise<FetchedJob<T> | null> {
    const [job] = await this.boss.fetch<T>(name, { batchSize: 1 });
    return job ? { id: job.id, data: job.data } : null;
  }

  complete(name: string, id: string): Promise<void> {
    return this.boss.complete(name, id);
  }

  /** The attempt failed: the engine retries it after the queue's delay, or moves it to the dead letter queue. */
  fail(name: string, id: string, err: Error): Promise<void> {
    return this.boss.fail(name, id, { message: err.message });
  }

  /** A handler pg-boss polls for (for queues with little traffic, such as dead letters and scheduled jobs). */
  work<T>(name: string, handler: (job: FetchedJob<T>) => Promise<void>, pollingSeconds = 2): Promise<string> {
    return this.boss.work<T>(name, { batchSize: 1, pollingIntervalSeconds: pollingSeconds }, async ([job]) => {
      if (job) await handler({ id: job.id, data: job.data });
    });
  }

  /** A cron schedule that sends `data` to the queue `name` (issue 33's monitoring runs on this). */
  schedule(name: string, cron: string, data: object = {}): Promise<void> {
    return this.boss.schedule(name, cron, data);
  }

  /**
   * Waits for the handlers `work` started (dead letters, pruning, webhook deliveries: each short, and the network
   * layer is closed first) before the engine stops: a handler that ended after it would complete its job on a
   * database already closed, an unhandled rejection in the engine's worker.
   */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: STOP_TIMEOUT_MS, wait: true, close: false });
  }
}
