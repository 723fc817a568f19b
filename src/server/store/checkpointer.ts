import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints, moved off the request path.
 *
 * By default SQLite checkpoints inside the commit that takes the WAL past 1,000 pages: that commit
 * copies ~4 MB into the database file and syncs it, on the event loop. With likes writing a few pages
 * each, one like in a hundred or two paid for it: `bench:social` measured a like-add p99 of 8.8 ms
 * with the default and 2.7 ms with checkpoints elsewhere (CPU p99 the same 4.7 ms: the copy is the
 * tail). So the request connection never checkpoints (`wal_autocheckpoint = 0`), and a worker thread
 * with its own connection to the same file runs a PASSIVE checkpoint every `intervalMs`, which never
 * blocks the writer. A PASSIVE checkpoint cannot rewind the WAL while writes keep arriving, so once
 * the WAL passes `restartPages` the worker runs one RESTART checkpoint, and `journal_size_limit` trims
 * the file afterwards. A RESTART holds writers while it copies, so it runs only right after a quick
 * passive run that caught up: under a bulk load on a busy machine a passive copy takes up to a
 * second (seen: 969 ms at load 14, `bench:pages` adding 300,000 posts), and a restart straight after
 * it held the writer for everything written meanwhile. Held restarts measured after the change: at
 * most 410 ms, most of it waiting (at most 100 ms a time) for readers.
 *
 * If the worker fails, the request connection goes back to SQLite's own checkpoints: the WAL stays
 * bounded either way.
 */
export interface Checkpointer {
  /** Stops the worker and closes its connection; the store closes its own afterwards. */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** how often the worker checkpoints (ms). */
  intervalMs?: number;
  /** WAL pages past which the worker restarts the WAL. */
  restartPages?: number;
  /** called once when the worker fails and SQLite's own checkpoints take over again. */
  onFailure?: (error: unknown) => void;
}

/** SQLite's own default, restored when the worker is gone. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
const DEFAULT_INTERVAL_MS = 200;
const DEFAULT_RESTART_PAGES = 16_384;
/** a passive run at most this long (ms) left little enough for a RESTART to copy while holding writers. */
const QUICK_PASSIVE_MS = 20;
/** the WAL file is trimmed back to this after a restart (bytes). */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * The worker's code, run as a CommonJS script (`eval`): no build step and no loader needed, in the
 * test runner, under tsx and from the built server alike.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// a RESTART waits this long for readers while it holds writers: keep it short
db.pragma('busy_timeout = 100');
const checkpoint = (mode) => db.prepare('PRAGMA wal_checkpoint(' + mode + ')').get();
let timer = setInterval(() => {
  try {
    const result = checkpoint('PASSIVE');
    if (result && result.log >= workerData.restartPages) {
      // RESTART holds writers while it copies what the passive run left, and a passive copy of a
      // big WAL can take seconds while writes keep arriving: only restart after a second passive run
      // that was quick and caught up, so the held copy is a few milliseconds of writes
      const started = Date.now();
      const again = checkpoint('PASSIVE');
      if (Date.now() - started <= workerData.quickMs && again.log === again.checkpointed)
        checkpoint('RESTART');
    }
  } catch (error) {
    clearInterval(timer);
    parentPort.postMessage({ failed: String(error && error.message || error) });
    db.close();
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

const require = createRequire(import.meta.url);

/** Starts checkpointing `file` (the WAL database `database` has open) from a worker thread. */
export function startCheckpointer(
  database: SQLite.Database,
  file: string,
  options: CheckpointerOptions = {},
): Checkpointer {
  database.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  database.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: require.resolve('better-sqlite3'),
      intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
      restartPages: options.restartPages ?? DEFAULT_RESTART_PAGES,
      quickMs: QUICK_PASSIVE_MS,
    },
  });
  // a store left open must not keep the process alive for its checkpoints
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (error: unknown) => {
    if (failed || stopping) return;
    failed = true;
    if (database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    options.onFailure?.(error);
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) fail(new Error(message.failed));
  });
  worker.on('error', fail);
  worker.once('exit', (code) => {
    if (!stopping) fail(new Error(`the checkpoint worker exited (code ${code})`));
  });
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      // held while it closes: an unref'd worker would let the process end here, mid-shutdown
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
