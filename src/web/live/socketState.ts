/**
 * Whether the realtime socket (the Phoenix socket of live activity) is open, for whoever shows the
 * connection's state (the connection pinger's indicator). The live engine reports; nothing here knows
 * the engine, so a reader does not load it. `null` until a socket was opened or closed in this page.
 */
export type RealtimeSocketState = 'open' | 'closed';

let current: RealtimeSocketState | null = null;
const listeners = new Set<(state: RealtimeSocketState) => void>();

export function reportRealtimeSocket(state: RealtimeSocketState): void {
  if (state === current) return;
  current = state;
  for (const listener of listeners) listener(state);
}

export function realtimeSocketState(): RealtimeSocketState | null {
  return current;
}

/** Calls `listener` on every change from now on; returns the unsubscribe. */
export function onRealtimeSocket(listener: (state: RealtimeSocketState) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
