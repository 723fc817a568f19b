import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { runScanJob, seqBounds, type RecordChunk, type ScanJob } from './scan';

/**
 * The SQLite snapshot scan split by seq range across threads: this thread reads the first range while
 * worker threads (scan-worker.cjs), each with its own read-only connection (WAL lets readers run side
 * by side), read the others and transfer their columns back. Each range is its own read snapshot: a
 * change committed during the build may show in one range and not another, which is harmless because
 * the caller reads the change feed position before the scan and applies every later change again.
 */

export interface ScanThreadsOptions {
  /** ranges read at once (this thread included); default: the cores, at most MAX_THREADS. */
  threads?: number | undefined;
  /** below this many seq values the scan stays on this thread (starting a worker costs ~0.15 s of CPU). */
  minRowsPerThread?: number | undefined;
  log?: ((message: string, details?: Record<string, unknown>) => void) | undefined;
}

const MAX_THREADS = 4;
const MIN_ROWS_PER_THREAD = 100_000;
const WORKER_URL = new URL('./scan-worker.cjs', import.meta.url);

/**
 * Every shown point, event and post of the store, as chunks: the points in seq order, then the events
 * and the posts (read on this thread, after its own range).
 */
export async function scanSqliteInThreads(
  database: SQLite.Database,
  events: { cutoff: number; graceMs: number; now: number },
  options: ScanThreadsOptions = {},
): Promise<RecordChunk[]> {
  const [low, high] = seqBounds(database);
  const span = high - low + 1;
  const wanted = options.threads ?? Math.min(MAX_THREADS, os.availableParallelism());
  const perThread = options.minRowsPerThread ?? MIN_ROWS_PER_THREAD;
  const threads = database.memory ? 1 : Math.max(1, Math.min(wanted, Math.floor(span / perThread)));
  // the first range starts before any seq, and the last ends at the highest one read above
  const bounds = Array.from({ length: threads + 1 }, (_, k) =>
    k === 0 ? -1 : k === threads ? high : low - 1 + Math.floor((span * k) / threads),
  );
  const jobs = Array.from({ length: threads }, (_, k) => ({
    after: bounds[k] as number,
    upTo: bounds[k + 1] as number,
    // the events go with this thread's range: its share starts at once, a worker's after ~0.15 s
    events: k === 0 ? events : null,
  }));
  if (threads > 1) options.log?.('point tiles: scanning the store in threads', { threads, seqSpan: span });
  const [mine, ...theirs] = jobs as [Omit<ScanJob, 'file'>, ...Omit<ScanJob, 'file'>[]];
  const pending = theirs.map((job) =>
    runWorker({ ...job, file: database.name }).catch((error: unknown) => {
      // a worker that cannot start (or fails) costs time, never records: its job runs here instead
      options.log?.('point tiles: scan worker failed; reading its range on the main thread', {
        err: error instanceof Error ? error.message : String(error),
        after: job.after,
        upTo: job.upTo,
      });
      return runScanJob(database, job);
    }),
  );
  const [firstPoints, ...firstEvents] = runScanJob(database, mine);
  const rest = await Promise.all(pending);
  return [firstPoints as RecordChunk, ...rest.flat(), ...firstEvents];
}

function runWorker(job: ScanJob): Promise<RecordChunk[]> {
  return new Promise((resolve, reject) => {
    let result: RecordChunk[] | undefined;
    // execArgv: []: the worker loads its TypeScript itself (scan-worker.cjs), whatever started this process
    const worker = new Worker(WORKER_URL, { workerData: job, execArgv: [] });
    worker.once('message', (chunks: RecordChunk[]) => {
      result = chunks;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`scan worker exited with code ${code} before answering`));
    });
  });
}
