import pg from 'pg';
import type { Store } from './store';

/** The channel the change-feed trigger notifies on commit (migration 0009). */
export const CHANGE_CHANNEL = 'xpoint_changes';

export interface ChangeListenerOptions {
  /** the first wait before reconnecting; doubled after each failure up to `maxBackoffMs`. Default 100 ms. */
  backoffMs?: number;
  /** default 5 s. */
  maxBackoffMs?: number;
  /** once when the connection is lost (not once per retry), once when it is back. */
  log?: { warn(message: string): void; info(message: string): void };
}

export interface ChangeListener {
  /** resolves once LISTEN is in place (the first time); tests wait for it. */
  readonly ready: Promise<void>;
  /** the listening connection's server process id while connected (tests cut it). */
  backendPid(): number | undefined;
  close(): Promise<void>;
}

/**
 * Holds one dedicated PostgreSQL connection that LISTENs on `xpoint_changes` and calls `onChange` for
 * each notification, so the change-feed follower reads the feed right after another process (or this
 * one) commits a write, instead of at its next poll. The follower's polling stays as the safety net: a
 * lost connection only delays changes to the next poll while this reconnects with backoff, and on
 * reconnecting it calls `onChange` once, since notifications sent meanwhile are gone.
 *
 * Outside the pool: a LISTEN is per connection, and a pooled one would be handed to queries.
 */
export function listenForChanges(
  store: Store,
  onChange: () => void,
  options: ChangeListenerOptions = {},
): ChangeListener {
  if (store.raw.kind !== 'postgres') throw new Error('only a PostgreSQL store notifies its changes');
  const config = store.raw.pool.options;
  const firstBackoff = options.backoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  let client: pg.Client | undefined;
  let pid: number | undefined;
  let closed = false;
  let lost = false;
  let backoff = firstBackoff;
  let retry: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      ...(config.connectionString !== undefined ? { connectionString: config.connectionString } : {}),
      ...(config.connectionTimeoutMillis !== undefined
        ? { connectionTimeoutMillis: config.connectionTimeoutMillis }
        : {}),
    });
    next.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) onChange();
    });
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    try {
      await next.connect();
      await next.query(`listen ${CHANGE_CHANNEL}`);
      pid = (await next.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    } catch {
      dropped(next);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    backoff = firstBackoff;
    markReady();
    if (lost) {
      lost = false;
      options.log?.info('change feed listener: connected again; writes wake the follower again');
      onChange();
    }
  };

  const gone = new WeakSet<pg.Client>();
  // a dead connection reports itself more than once (error, then end): it is dropped the first time
  const dropped = (which: pg.Client): void => {
    if (gone.has(which)) return;
    gone.add(which);
    if (client === which) {
      client = undefined;
      pid = undefined;
    }
    if (closed || retry) {
      which.end().catch(() => {});
      return;
    }
    which.end().catch(() => {});
    if (!lost) {
      lost = true;
      options.log?.warn(
        'change feed listener: lost its PostgreSQL connection; reconnecting, the follower polls meanwhile',
      );
    }
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, backoff);
    retry.unref();
    backoff = Math.min(backoff * 2, maxBackoff);
  };

  void connect();
  return {
    ready,
    backendPid: () => (client ? pid : undefined),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = undefined;
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
