import { afterAll, beforeAll } from 'vitest';
import type { Store } from '../../../src/server/store/store';
import { launchBrowser, waitForMapReady, type Browser, type OpenedPage, type Viewport } from './browser';
import { startServer, type RunningServer, type ServerOptions } from './server';
import { withStore } from './store';

export interface JourneyOptions extends ServerOptions {
  /** Adds the journey's own rows to the server's store, after the server started, before the browser. */
  prepare?: (store: Store) => Promise<void>;
  /** Whether the app's service worker may run (launchBrowser); blocked by default. */
  serviceWorkers?: 'allow' | 'block';
}

/** The server and the browser a journey file shares; read them inside tests and hooks only. */
export interface Journey {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The address of `path` (from its leading slash) on the journey's server. */
  url(path: string): string;
  /** Opens the journey's store while the server runs on it, runs `work` and closes it again. */
  withStore<T>(work: (store: Store) => Promise<T>): Promise<T>;
}

/**
 * Registers, in the describe block it is called in, a `beforeAll` that starts the server (the demo
 * seed and `prepare`'s rows in its store) and launches Chromium, and an `afterAll` that closes the
 * browser, then stops the server.
 */
export function startJourney(options: JourneyOptions = {}): Journey {
  const { prepare, serviceWorkers, ...serverOptions } = options;
  let server: RunningServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startServer(serverOptions);
    if (prepare) await withStore(server.dataDir, prepare);
    browser = await launchBrowser(serviceWorkers === undefined ? {} : { serviceWorkers });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const started = () => {
    if (server === undefined || browser === undefined) throw new Error('the journey did not start');
    return { server, browser };
  };
  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    url: (path) => `${started().server.url}${path}`,
    withStore: (work) => withStore(started().server.dataDir, work),
  };
}

/**
 * Opens a new page at `url` (see Browser.open) and waits until the map has rendered its first frame
 * and gone idle (waitForMapReady).
 */
export async function openWithMap(browser: Browser, url: string, viewport: Viewport): Promise<OpenedPage> {
  const opened = await browser.open(url, viewport);
  await waitForMapReady(opened.page);
  return opened;
}
