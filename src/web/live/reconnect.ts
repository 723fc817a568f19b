import { LongPoll, type Socket } from 'phoenix';

/** The parts of phoenix.js's Socket this module reads and sets (not in its type declarations). */
interface SocketInternals {
  transport: unknown;
  longPollFallbackMs?: number | null;
}

/**
 * phoenix.js (1.8) runs its long-poll fallback again on every reconnect: after a server restart the
 * first WebSocket attempt fails while the server is down, the client falls back at once and keeps
 * long-polling for the rest of the page's life (phoenixframework/phoenix#6208). Once a WebSocket has
 * opened in this page, WebSocket works here and a lost connection is a restart or a network blip:
 * from then on reconnects go straight to WebSocket with the client's backoffs. A page whose WebSocket
 * never opened keeps the fallback.
 */
export function keepWebSocketOnceOpen(socket: Socket): void {
  const internals = socket as unknown as SocketInternals;
  socket.onOpen(() => {
    if (internals.transport !== LongPoll) internals.longPollFallbackMs = null;
  });
}
