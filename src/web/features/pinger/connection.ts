import type { RealtimeSocketState } from '../../live/socketState';
import { checkedInterval, type PingIntervals } from './intervals';

/**
 * The connection pinger's state machine (social §4): a plain class outside React, told the results of
 * its pings, the browser's online and offline events and the realtime socket's state, and telling its
 * subscribers a new snapshot on every change. It pings every `okMs` while the connection is OK and every
 * `errorMs` after a failure; a ping that fails while OK is the loss (banner, error sound, the indicator
 * flashes), a ping that answers while lost is the recovery (banner hidden, success sound, the
 * "restored" notice).
 *
 * The browser's `offline` event is a loss at once. The socket is a hint, never a verdict on its own:
 * it closes when the server goes away, so a close pings at once (at most once per HINT_PING_GAP_MS, as
 * a socket that cannot connect closes again on each retry), and an open while lost pings at once to
 * confirm the recovery; otherwise a socket that is down while pings answer shows as "live updates off".
 */

export type ConnectionState = 'ok' | 'lost';

export type PingResult = { ok: true } | { ok: false; detail: string };

export interface ConnectionSnapshot {
  state: ConnectionState;
  /** what the last failed ping said (the server's text or the network error); '' while OK. */
  detail: string;
  /** the realtime socket's state; null before this page had one. */
  socket: RealtimeSocketState | null;
  /** the last transition, numbered so a reader acts on each once (sound, banner); null before any. */
  change: { kind: 'lost' | 'restored'; count: number } | null;
}

/** A ping that has not answered within this is a failure (less than any interval §9 allows). */
export const PING_TIMEOUT_MS = 10_000;
/** Socket closes ping at once at most this often. */
export const HINT_PING_GAP_MS = 10_000;
/**
 * The detail shown when the browser itself says it is offline. Plain (issue 23): where the map's area
 * was seen before, the service worker (web/pwa/sw.ts) still shows it.
 */
export const OFFLINE_DETAIL =
  'You are offline. The map shows the area you last saw; nothing new loads until the network is back.';

export interface ConnectionPingerOptions {
  /** one ping; rejects (or the signal aborts) when it did not finish. */
  ping(signal: AbortSignal): Promise<PingResult>;
  intervals: PingIntervals;
  timeoutMs?: number;
  now?: () => number;
}

export class ConnectionPinger {
  private snapshot: ConnectionSnapshot = { state: 'ok', detail: '', socket: null, change: null };
  private readonly listeners = new Set<() => void>();
  private readonly intervals: PingIntervals;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: AbortController | null = null;
  private lastHintPing = Number.NEGATIVE_INFINITY;
  private running = false;

  constructor(private readonly options: ConnectionPingerOptions) {
    // §9: a custom interval must exceed 10 s; refused here whoever configures it
    this.intervals = {
      okMs: checkedInterval(options.intervals.okMs, 'interval'),
      errorMs: checkedInterval(options.intervals.errorMs, 'error interval'),
    };
    this.timeoutMs = options.timeoutMs ?? PING_TIMEOUT_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ConnectionSnapshot => this.snapshot;

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.inFlight?.abort();
    this.inFlight = null;
  }

  /** Pings now unless a ping is already on its way; the next is scheduled from its answer. */
  pingNow(): void {
    if (!this.running || this.inFlight !== null) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const call = new AbortController();
    this.inFlight = call;
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, this.timeoutMs);
    this.options
      .ping(call.signal)
      .catch((error: unknown): PingResult => {
        if (timedOut)
          return { ok: false, detail: `The server did not answer within ${this.timeoutMs / 1000} s.` };
        return { ok: false, detail: error instanceof Error ? error.message : String(error) };
      })
      .then((result) => {
        clearTimeout(timeout);
        // a ping aborted by an offline event or stop() is not a result
        if (this.inFlight !== call) return;
        this.inFlight = null;
        if (result.ok) this.recovered();
        else this.lost(result.detail);
        this.schedule();
      });
  }

  /** The browser's `offline` event: a loss now, without waiting for a ping to fail. */
  browserOffline(): void {
    if (!this.running) return;
    this.inFlight?.abort();
    this.inFlight = null;
    this.lost(OFFLINE_DETAIL);
    this.schedule();
  }

  /** The browser's `online` event: find out now. */
  browserOnline(): void {
    if (!this.running) return;
    // a ping sent while offline says nothing about now, and may hang until its timeout (a page a
    // service worker controls, in Chromium's emulated offline): the one sent now decides
    this.inFlight?.abort();
    this.inFlight = null;
    this.pingNow();
  }

  socketChanged(socket: RealtimeSocketState): void {
    if (socket === this.snapshot.socket) return;
    this.publish({ ...this.snapshot, socket });
    if (socket === 'open' && this.snapshot.state === 'lost') this.pingNow();
    else if (socket === 'closed' && this.snapshot.state === 'ok') {
      const now = this.now();
      if (now - this.lastHintPing < HINT_PING_GAP_MS) return;
      this.lastHintPing = now;
      this.pingNow();
    }
  }

  private schedule(): void {
    if (!this.running) return;
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = this.snapshot.state === 'ok' ? this.intervals.okMs : this.intervals.errorMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pingNow();
    }, wait);
  }

  private lost(detail: string): void {
    const { state, change } = this.snapshot;
    if (state === 'lost') {
      if (detail !== this.snapshot.detail) this.publish({ ...this.snapshot, detail });
      return;
    }
    this.publish({ ...this.snapshot, state: 'lost', detail, change: next('lost', change) });
  }

  private recovered(): void {
    const { state, change } = this.snapshot;
    if (state === 'ok') return;
    this.publish({ ...this.snapshot, state: 'ok', detail: '', change: next('restored', change) });
  }

  private publish(snapshot: ConnectionSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

function next(kind: 'lost' | 'restored', change: ConnectionSnapshot['change']): ConnectionSnapshot['change'] {
  return { kind, count: (change?.count ?? 0) + 1 };
}
