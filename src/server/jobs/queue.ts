import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql, type Selectable } from 'kysely';
import pg from 'pg';
import type { Store } from '../store/store';
import type { JobsTable } from '../store/schema';

/**
 * The durable job queue (issue 25): background work that survives a crash and is done once, whatever
 * the number of processes. Jobs are rows of the store's `jobs` table (migration 0011), on both engines:
 * - a job is written before anything runs it, so it outlives the process that enqueued it;
 * - a worker claims due jobs in one statement (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so two processes
 *   never claim one job; SQLite: one writer) and holds a lease it renews while the job runs; a process
 *   that dies stops renewing, and once the lease has passed another process takes the job;
 * - a failed run is retried after an exponential backoff, up to the job's attempts, then given up
 *   (the handler's `onGiveUp` says so to whoever waits, the video's author);
 * - the end of a run is written only while the worker still holds the lease (a worker whose lease
 *   was taken over cannot mark the job done a second time).
 *
 * - on PostgreSQL an enqueue notifies `xpoint_jobs`, so a worker in another process starts the job at
 *   once rather than at its next poll (the poll stays as the safety net).
 *
 * Why not pg-boss or BullMQ (bench/jobs.ts): the Redis XPoint runs keeps nothing on disk (`save ""`,
 * `appendonly no`), so BullMQ's jobs would be lost with a Redis restart; pg-boss 10 adds a schema of its
 * own, works only on PostgreSQL (SQLite needed this table anyway) and polls no faster than every 0.5 s
 * (enqueue -> start p50 500 ms, 8 jobs/s at 4 at a time, against 7 ms and hundreds per second here).
 * This table gives both engines one behaviour and one test suite.
 */

/** What a handler knows of the run it is in. */
export interface JobRun {
  id: string;
  name: string;
  /** 1 for the first run */
  attempt: number;
  maxAttempts: number;
  /** aborted when the queue stops before the job ends (the job is then released to another worker) */
  signal: AbortSignal;
}

export type JobHandler<P> = (payload: P, run: JobRun) => Promise<void>;

export interface JobOptions<P> {
  /** runs after the first that fail; default 3 */
  retries?: number;
  /** the wait before the first retry, doubled for each next one; default 5 s */
  backoffMs?: number;
  /** the longest wait between two runs; default 10 minutes */
  maxBackoffMs?: number;
  /** called once when the job has failed its last run (or its worker died on it once too often) */
  onGiveUp?: (payload: P, error: Error, run: Omit<JobRun, 'signal'>) => Promise<void>;
}

export interface QueueOptions {
  /** names this worker in the job's lease; default host:pid:random */
  workerId?: string;
  /** how often the store is asked for due jobs enqueued by other processes; default 1 s */
  pollMs?: number;
  /** how long a claimed job stays this worker's without a renewal; default 30 s */
  leaseMs?: number;
  /** jobs run at once by this worker; default 1 (a transcode takes a core) */
  concurrency?: number;
  /** how long stop() waits for running jobs before it releases them; default 10 s */
  graceMs?: number;
  /**
   * On PostgreSQL, whether an enqueue anywhere wakes this worker at once (LISTEN on `xpoint_jobs`);
   * default true. Polling stays the safety net (a lost connection only delays jobs to the next poll).
   */
  listen?: boolean;
  log?: { info(message: string): void; warn(message: string): void; error(message: string): void };
}

interface Registered {
  handler: JobHandler<unknown>;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  onGiveUp: JobOptions<unknown>['onGiveUp'];
}

type JobRow = Selectable<JobsTable>;

/** The channel an enqueue notifies on PostgreSQL (the payload is the job's name). */
export const JOBS_CHANNEL = 'xpoint_jobs';
const RELISTEN_MS = 1000;

/** Finished jobs are kept this long (a key enqueued again in that time is still the same job). */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

export class JobQueue {
  readonly workerId: string;
  private readonly handlers = new Map<string, Registered>();
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly graceMs: number;
  private readonly log: NonNullable<QueueOptions['log']> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dueAt = 0;
  private started = false;
  private stopped = false;
  /** abandon(): this worker acts as a killed process would, writing nothing more */
  private dead = false;
  private ticking: Promise<void> | undefined;
  private again = false;
  private prunedAt = 0;
  private readonly listens: boolean;
  private listener: pg.Client | undefined;
  private relisten: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    options: QueueOptions = {},
  ) {
    this.workerId =
      options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`.slice(0, 120);
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.concurrency = options.concurrency ?? 1;
    this.graceMs = options.graceMs ?? 10_000;
    this.log = options.log;
    this.listens = (options.listen ?? true) && store.raw.kind === 'postgres';
  }

  /** Says what runs jobs of `name`; a process runs only the names it registered. */
  register<P>(name: string, handler: JobHandler<P>, options: JobOptions<P> = {}): void {
    this.handlers.set(name, {
      handler: handler as JobHandler<unknown>,
      maxAttempts: 1 + (options.retries ?? 3),
      backoffMs: options.backoffMs ?? 5000,
      maxBackoffMs: options.maxBackoffMs ?? 10 * 60_000,
      onGiveUp: options.onGiveUp as JobOptions<unknown>['onGiveUp'],
    });
  }

  /**
   * Writes a job; with a `key`, a job of that name and key that exists already (queued, running or
   * finished in the last week) is the answer instead of a new one. The job runs on whichever process
   * claims it first; in this process at once when a slot is free.
   */
  async enqueue(
    name: string,
    payload: unknown,
    options: { key?: string; delayMs?: number } = {},
  ): Promise<{ id: string; created: boolean }> {
    const registered = this.handlers.get(name);
    const now = Date.now();
    const id = randomUUID();
    const inserted = await this.store.db
      .insertInto('jobs')
      .values({
        id,
        name,
        key: options.key ?? null,
        payload: JSON.stringify(payload ?? null),
        state: 'queued',
        attempts: 0,
        max_attempts: registered?.maxAttempts ?? 4,
        run_at: now + (options.delayMs ?? 0),
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(['name', 'key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      if (!options.delayMs) {
        this.wake();
        // every other process's worker, at once
        if (this.store.dialect === 'postgres')
          await sql`select pg_notify(${JOBS_CHANNEL}, ${name})`.execute(this.store.db);
      }
      return { id, created: true };
    }
    const existing = await this.store.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', name)
      .where('key', '=', options.key ?? '')
      .executeTakeFirstOrThrow();
    return { id: existing.id, created: false };
  }

  /** Starts claiming jobs: now, after each job, on every enqueue here, and every pollMs. */
  start(): void {
    if (this.started) return;
    this.started = true;
    if (this.listens) void this.listen();
    this.schedule(0);
  }

  /** Whether enqueues of other processes wake this worker now (PostgreSQL, LISTEN in place). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** LISTEN for enqueues of other processes on a connection of its own; reconnects after a second. */
  private async listen(): Promise<void> {
    if (this.stopped || this.store.raw.kind !== 'postgres') return;
    const { connectionString, connectionTimeoutMillis } = this.store.raw.pool.options;
    const client = new pg.Client({
      ...(connectionString !== undefined ? { connectionString } : {}),
      ...(connectionTimeoutMillis !== undefined ? { connectionTimeoutMillis } : {}),
    });
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      client.end().catch(() => {});
      if (this.listener === client) this.listener = undefined;
      if (this.stopped) return;
      this.relisten = setTimeout(() => void this.listen(), RELISTEN_MS);
      this.relisten.unref();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      if (message.channel === JOBS_CHANNEL && this.handlers.has(message.payload ?? '')) this.wake();
    });
    try {
      await client.connect();
      await client.query(`listen ${JOBS_CHANNEL}`);
    } catch {
      drop();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    // enqueued while it was not listening: looked for now
    this.wake();
  }

  private async unlisten(): Promise<void> {
    clearTimeout(this.relisten);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => {});
  }

  /**
   * Stops claiming, waits up to graceMs for the running jobs, then releases the ones still running
   * (their signal is aborted; they go back to the queue without counting as an attempt).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten();
    await this.ticking;
    const runs = [...this.running.entries()];
    if (runs.length === 0) return;
    let timeout: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'late'>((resolve) => {
      timeout = setTimeout(() => resolve('late'), this.graceMs);
    });
    await Promise.race([Promise.all(runs.map(([, run]) => run.done)), graceOver]);
    clearTimeout(timeout);
    for (const [id, run] of this.running) {
      run.abort.abort(new Error('the queue is stopping'));
      await this.store.db
        .updateTable('jobs')
        .set({
          state: 'queued',
          attempts: sql<number>`attempts - 1`,
          locked_by: null,
          locked_until: null,
          run_at: Date.now(),
          updated_at: Date.now(),
        })
        .where('id', '=', id)
        .where('locked_by', '=', this.workerId)
        .where('state', '=', 'running')
        .execute();
      this.log?.info(`job ${id}: released for another worker (the queue stopped)`);
    }
  }

  /**
   * Stops at once without finishing or releasing anything, as a killed process does: its jobs stay
   * leased until the lease passes, then another worker takes them. For tests and the cluster bench.
   */
  abandon(): void {
    this.dead = true;
    this.stopped = true;
    clearTimeout(this.timer);
    void this.unlisten();
    for (const run of this.running.values()) run.abort.abort(new Error('the worker died'));
  }

  /** Looks for due jobs now (after an enqueue in this process). */
  wake(): void {
    if (this.started && !this.stopped) this.schedule(0);
  }

  /** The next look at the store in `delayMs`, unless one is due sooner (a wake is never pushed back). */
  private schedule(delayMs: number): void {
    const at = Date.now() + delayMs;
    if (this.timer && this.dueAt <= at) return;
    clearTimeout(this.timer);
    this.dueAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.claimAndRun().catch((error: unknown) => {
      if (!this.stopped) this.log?.error(`job queue: claiming failed: ${(error as Error).message}`);
    });
    await this.ticking;
    this.ticking = undefined;
    if (this.stopped) return;
    if (this.again) {
      this.again = false;
      this.schedule(0);
    } else this.schedule(this.pollMs);
  }

  private async claimAndRun(): Promise<void> {
    if (this.stopped) return;
    await this.prune();
    const free = this.concurrency - this.running.size;
    if (free <= 0 || this.handlers.size === 0) return;
    const jobs = await this.claim(free);
    for (const job of jobs) {
      const abort = new AbortController();
      const done = this.run(job, abort.signal).finally(() => {
        this.running.delete(job.id);
        // a slot is free: the next due job now, not at the next poll
        if (!this.stopped) this.schedule(0);
      });
      this.running.set(job.id, { done, abort });
    }
    if (jobs.length === free) this.again = true;
  }

  /** Takes up to `limit` due jobs (queued and due, or running with a lease that has passed). */
  private async claim(limit: number): Promise<JobRow[]> {
    const now = Date.now();
    const names = [...this.handlers.keys()];
    return this.store.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('jobs')
        .select('id')
        .where('name', 'in', names)
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
            eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)]),
          ]),
        )
        .orderBy('run_at')
        .limit(limit);
      // two processes asking at once each get other jobs, never the same one
      if (this.store.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      return trx
        .updateTable('jobs')
        .set({
          state: 'running',
          attempts: sql<number>`attempts + 1`,
          locked_by: this.workerId,
          locked_until: now + this.leaseMs,
          updated_at: now,
        })
        .where('id', 'in', ids)
        .returningAll()
        .execute();
    });
  }

  private async run(job: JobRow, signal: AbortSignal): Promise<void> {
    const registered = this.handlers.get(job.name);
    if (!registered) return;
    const run: JobRun = {
      id: job.id,
      name: job.name,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      signal,
    };
    const payload: unknown = JSON.parse(job.payload);
    // a job whose workers died on it more often than it may run is given up without another run
    if (job.attempts > job.max_attempts) {
      await this.finish(job, registered, payload, run, new Error('its worker stopped during every run'));
      return;
    }
    const renew = setInterval(() => void this.renew(job.id), Math.max(50, Math.floor(this.leaseMs / 3)));
    renew.unref();
    let failure: Error | undefined;
    try {
      await registered.handler(payload, run);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    } finally {
      clearInterval(renew);
    }
    if (this.dead || signal.aborted) return;
    await this.finish(job, registered, payload, run, failure);
  }

  /** Done, retried later, or given up; written only while this worker still holds the job. */
  private async finish(
    job: JobRow,
    registered: Registered,
    payload: unknown,
    run: JobRun,
    failure: Error | undefined,
  ): Promise<void> {
    const now = Date.now();
    const held = this.store.db
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .where('state', '=', 'running');
    if (!failure) {
      await held
        .set({ state: 'done', locked_by: null, locked_until: null, last_error: null, updated_at: now })
        .execute();
      return;
    }
    const reason = failure.message.slice(0, 2000);
    if (job.attempts < job.max_attempts) {
      const wait = Math.min(registered.maxBackoffMs, registered.backoffMs * 2 ** (job.attempts - 1));
      await held
        .set({
          state: 'queued',
          run_at: now + wait,
          locked_by: null,
          locked_until: null,
          last_error: reason,
          updated_at: now,
        })
        .execute();
      this.log?.warn(
        `job ${job.name} ${job.id}: run ${job.attempts} failed (${reason}); again in ${wait} ms`,
      );
      return;
    }
    const result = await held
      .set({ state: 'failed', locked_by: null, locked_until: null, last_error: reason, updated_at: now })
      .executeTakeFirst();
    this.log?.error(`job ${job.name} ${job.id}: given up after ${job.attempts} runs: ${reason}`);
    if (Number(result.numUpdatedRows) > 0 && registered.onGiveUp) {
      const { signal: _signal, ...described } = run;
      await registered.onGiveUp(payload, failure, described).catch((error: unknown) => {
        this.log?.error(`job ${job.name} ${job.id}: onGiveUp failed: ${(error as Error).message}`);
      });
    }
  }

  private async renew(id: string): Promise<void> {
    if (this.dead) return;
    try {
      await this.store.db
        .updateTable('jobs')
        .set({ locked_until: Date.now() + this.leaseMs })
        .where('id', '=', id)
        .where('locked_by', '=', this.workerId)
        .where('state', '=', 'running')
        .execute();
    } catch (error) {
      this.log?.warn(`job ${id}: renewing its lease failed: ${(error as Error).message}`);
    }
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.store.db
      .deleteFrom('jobs')
      .where('state', 'in', ['done', 'failed'])
      .where('updated_at', '<', now - KEEP_FINISHED_MS)
      .execute();
  }
}
