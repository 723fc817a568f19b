/**
 * Whether a new version of XPoint is installed and waiting (the service worker's registration,
 * register.ts, reports it; the notice, UpdateNotice.tsx, reads it). Apart from both so the notice,
 * which is on the first screen, does not load Workbox.
 */
let accept: (() => void) | null = null;
const listeners = new Set<() => void>();

export function reportUpdateWaiting(onAccept: () => void): void {
  accept = onAccept;
  for (const listener of listeners) listener();
}

/** The reload to the new version, or null while none is waiting. */
export function waitingUpdate(): (() => void) | null {
  return accept;
}

export function onUpdateWaiting(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
