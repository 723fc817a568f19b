import { afterEach, describe, expect, test, vi } from 'vitest';
import { LongPoll, Socket } from 'phoenix';
import { keepWebSocketOnceOpen } from './reconnect';

/**
 * A WebSocket stand-in: the first connection opens and later drops, as when the server stops; the
 * attempts after it fail, as while the server is down.
 */
class FlakyTransport {
  static made = 0;
  binaryType = '';
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number; wasClean: boolean }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: (() => void) | null = null;
  constructor() {
    const attempt = ++FlakyTransport.made;
    setTimeout(() => {
      if (attempt === 1) {
        this.readyState = 1;
        this.onopen?.();
        setTimeout(() => this.drop(), 10);
      } else {
        this.onerror?.('refused');
        this.drop();
      }
    }, 1);
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006, wasClean: false });
  }
  close() {
    this.readyState = 3;
  }
  send() {}
}

function transportOf(socket: Socket): unknown {
  return (socket as unknown as { transport: unknown }).transport;
}

describe('keepWebSocketOnceOpen', () => {
  let socket: Socket | undefined;
  afterEach(() => {
    socket?.disconnect();
    vi.useRealTimers();
  });

  function flakySocket(): Socket {
    FlakyTransport.made = 0;
    return new Socket('ws://127.0.0.1:9/socket', {
      transport: FlakyTransport as unknown as typeof WebSocket,
      longPollFallbackMs: 2_500,
      reconnectAfterMs: () => 20,
      // no heartbeat pings from the stand-in
      heartbeatIntervalMs: 60_000,
    });
  }

  test('after a WebSocket opened, reconnects stay on WebSocket while the server is down', async () => {
    socket = flakySocket();
    keepWebSocketOnceOpen(socket);
    socket.connect();
    await vi.waitFor(() => expect(FlakyTransport.made).toBeGreaterThanOrEqual(4), { timeout: 2_000 });
    expect(transportOf(socket)).toBe(FlakyTransport);
  });

  test('without it, phoenix falls back to long-poll on the first failed reconnect', async () => {
    socket = flakySocket();
    // the long-poll transport is never constructed here: the fallback only swaps the class
    const replaced = vi.spyOn(socket, 'replaceTransport').mockImplementation(() => undefined);
    socket.connect();
    await vi.waitFor(() => expect(replaced).toHaveBeenCalledWith(LongPoll), { timeout: 2_000 });
  });
});
