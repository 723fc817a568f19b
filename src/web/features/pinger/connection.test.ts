import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionPinger, OFFLINE_DETAIL, type PingResult } from './connection';

/** A ping function whose answers the test gives one by one. */
function scriptedPing() {
  const calls: { resolve(result: PingResult): void; signal: AbortSignal }[] = [];
  const ping = vi.fn(
    (signal: AbortSignal) =>
      new Promise<PingResult>((resolve, reject) => {
        calls.push({ resolve, signal });
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      }),
  );
  return { ping, calls, answer: (result: PingResult) => calls.at(-1)!.resolve(result) };
}

const INTERVALS = { okMs: 27_000, errorMs: 17_000 };

describe('ConnectionPinger (social §4, §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses an interval of 10 s or less', () => {
    const { ping } = scriptedPing();
    expect(() => new ConnectionPinger({ ping, intervals: { okMs: 10_000, errorMs: 17_000 } })).toThrow(
      RangeError,
    );
    expect(() => new ConnectionPinger({ ping, intervals: { okMs: 27_000, errorMs: 9_000 } })).toThrow(
      'The ping error interval must exceed 10 s (got 9 s).',
    );
  });

  it('pings every 27 s while OK, every 17 s after a failure, and tells the loss and the recovery once each', async () => {
    const { ping, answer } = scriptedPing();
    const pinger = new ConnectionPinger({ ping, intervals: INTERVALS });
    const seen: string[] = [];
    pinger.subscribe(() => seen.push(`${pinger.getSnapshot().state}:${pinger.getSnapshot().detail}`));
    pinger.start();

    await vi.advanceTimersByTimeAsync(26_999);
    expect(ping).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(ping).toHaveBeenCalledTimes(1);
    answer({ ok: true });
    await vi.advanceTimersByTimeAsync(27_000);
    expect(ping).toHaveBeenCalledTimes(2);
    answer({ ok: false, detail: 'The store is not answering.' });
    await vi.advanceTimersByTimeAsync(0);
    expect(pinger.getSnapshot()).toMatchObject({
      state: 'lost',
      detail: 'The store is not answering.',
      change: { kind: 'lost', count: 1 },
    });

    // after a failure: 17 s; a second failure is no second loss
    await vi.advanceTimersByTimeAsync(17_000);
    expect(ping).toHaveBeenCalledTimes(3);
    answer({ ok: false, detail: 'No answer from the server (network error).' });
    await vi.advanceTimersByTimeAsync(17_000);
    expect(pinger.getSnapshot().change).toEqual({ kind: 'lost', count: 1 });
    expect(ping).toHaveBeenCalledTimes(4);
    answer({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(pinger.getSnapshot()).toMatchObject({
      state: 'ok',
      detail: '',
      change: { kind: 'restored', count: 2 },
    });
    expect(seen).toEqual([
      'lost:The store is not answering.',
      'lost:No answer from the server (network error).',
      'ok:',
    ]);

    // back to 27 s
    await vi.advanceTimersByTimeAsync(26_999);
    expect(ping).toHaveBeenCalledTimes(4);
    pinger.stop();
  });

  it('counts a ping that does not answer within 10 s as a failure', async () => {
    const { ping } = scriptedPing();
    const pinger = new ConnectionPinger({ ping, intervals: INTERVALS, timeoutMs: 10_000 });
    pinger.start();
    pinger.pingNow();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(pinger.getSnapshot()).toMatchObject({
      state: 'lost',
      detail: 'The server did not answer within 10 s.',
    });
    pinger.stop();
  });

  it("is lost at once on the browser's offline event, and asks at once when it is online again", async () => {
    const { ping, answer } = scriptedPing();
    const pinger = new ConnectionPinger({ ping, intervals: INTERVALS });
    pinger.start();
    pinger.browserOffline();
    expect(pinger.getSnapshot()).toMatchObject({ state: 'lost', detail: OFFLINE_DETAIL });
    expect(ping).not.toHaveBeenCalled();
    pinger.browserOnline();
    expect(ping).toHaveBeenCalledTimes(1);
    answer({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(pinger.getSnapshot().state).toBe('ok');
    pinger.stop();
  });

  it('asks anew when the browser is online again, even with a ping from before still waiting', async () => {
    const { ping, calls, answer } = scriptedPing();
    const pinger = new ConnectionPinger({ ping, intervals: INTERVALS });
    pinger.start();
    pinger.browserOffline();
    // the timer's ping, sent while offline, hangs
    await vi.advanceTimersByTimeAsync(17_000);
    expect(ping).toHaveBeenCalledTimes(1);
    pinger.browserOnline();
    expect(ping).toHaveBeenCalledTimes(2);
    expect(calls[0]!.signal.aborted).toBe(true);
    answer({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(pinger.getSnapshot()).toMatchObject({ state: 'ok', change: { kind: 'restored' } });
    pinger.stop();
  });

  it('pings at once when the socket closes (once per 10 s) and when it opens again while lost', async () => {
    const { ping, answer } = scriptedPing();
    let now = 0;
    const pinger = new ConnectionPinger({ ping, intervals: INTERVALS, now: () => now });
    pinger.start();
    pinger.socketChanged('open');
    expect(ping).not.toHaveBeenCalled();
    pinger.socketChanged('closed');
    expect(ping).toHaveBeenCalledTimes(1);
    answer({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    // the server answers but the socket is down: not a loss, the indicator says live updates are off
    expect(pinger.getSnapshot()).toMatchObject({ state: 'ok', socket: 'closed' });
    now = 5_000;
    pinger.socketChanged('open');
    pinger.socketChanged('closed');
    expect(ping).toHaveBeenCalledTimes(1);
    now = 10_000;
    pinger.socketChanged('open');
    pinger.socketChanged('closed');
    expect(ping).toHaveBeenCalledTimes(2);
    answer({ ok: false, detail: 'No answer from the server (network error).' });
    await vi.advanceTimersByTimeAsync(0);
    expect(pinger.getSnapshot().state).toBe('lost');
    pinger.socketChanged('open');
    expect(ping).toHaveBeenCalledTimes(3);
    answer({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(pinger.getSnapshot()).toMatchObject({ state: 'ok', socket: 'open', change: { kind: 'restored' } });
    pinger.stop();
  });

  it('never pings after stop', async () => {
    const { ping } = scriptedPing();
    const pinger = new ConnectionPinger({ ping, intervals: INTERVALS });
    pinger.start();
    pinger.stop();
    await vi.advanceTimersByTimeAsync(100_000);
    pinger.pingNow();
    expect(ping).not.toHaveBeenCalled();
  });
});
