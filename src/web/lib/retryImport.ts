/**
 * Loads a background module (one no screen waits on: a live listener, the pinger) and, when the fetch
 * fails because the device went offline or the server blinked, tries again: at once when the browser
 * says it is back `online`, else after a growing pause (1 s, 2 s, 4 s...). After `attempts` failures
 * the promise rejects, and the caller goes on without the module; a page must never throw an unhandled
 * rejection because the network dropped between its first paint and its idle work.
 */
export function retryImport<T>(load: () => Promise<T>, attempts = 5, firstPauseMs = 1000): Promise<T> {
  return load().catch((error: unknown) => {
    if (attempts <= 1) throw error;
    return pauseUntilWorthRetrying(firstPauseMs).then(() =>
      retryImport(load, attempts - 1, firstPauseMs * 2),
    );
  });
}

function pauseUntilWorthRetrying(pauseMs: number): Promise<void> {
  return new Promise((resolve) => {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    if (!offline || typeof window === 'undefined') {
      setTimeout(resolve, pauseMs);
      return;
    }
    window.addEventListener('online', () => resolve(), { once: true });
  });
}
