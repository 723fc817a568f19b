import { whenIdle } from '../lib/idle';
import { retryImport } from '../lib/retryImport';
import { SW_URL } from './contract';

/**
 * Registers the service worker (register.ts, its own chunk with Workbox's window library) once the
 * page is idle after its load: its precache downloads the app's files, which must not take the
 * network from the first screen and the map. Not in development (Vite serves no worker there), nor
 * where the browser has none.
 */
export function startServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const start = () =>
    void whenIdle(5_000)
      .then(() => retryImport(() => import('./register')))
      .then(({ registerServiceWorker }) => registerServiceWorker())
      .catch((error: unknown) => console.warn(`XPoint: ${SW_URL} was not registered`, error));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
