import { whenIdle } from './idle';
import { retryImport } from './retryImport';

/**
 * Starts the real-user timings (./vitals.ts) for this page view, off the first screen's script: the
 * reporter and web-vitals are their own chunk, loaded once the browser is idle. The path is read now,
 * before the app can change it. A browser without sendBeacon (or whose chunk never loads) reports
 * nothing, and the page is none the worse.
 */
export function startWebVitals(): void {
  if (typeof navigator.sendBeacon !== 'function') return;
  const page = window.location.pathname;
  void whenIdle()
    .then(() => retryImport(() => import('./vitals')))
    .then(({ listenForWebVitals }) => listenForWebVitals(page))
    .catch(() => undefined);
}
