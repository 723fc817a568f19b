import { useSyncExternalStore } from 'react';
import { onUpdateWaiting, waitingUpdate } from './updateState';
import './pwa.css';

/**
 * "A new version of XPoint is ready": shown when a new deployment's service worker waits (register.ts).
 * Reloading is the visitor's choice: a screen half-filled in (a post being written, a route being
 * followed) is never swapped under them, and the page keeps its own version's scripts until then.
 */
export function UpdateNotice() {
  const accept = useSyncExternalStore(onUpdateWaiting, waitingUpdate, () => null);
  if (accept === null) return null;
  return (
    <div className="update-notice" role="status">
      <span>A new version of XPoint is ready.</span>
      <button type="button" className="xp-button xp-button--primary" onClick={accept}>
        Reload
      </button>
    </div>
  );
}
