import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (scripts/ensure-chromium.mjs installs it). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Software WebGL through SwiftShader, no background traffic (notes/offline-map.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1280, height: 800 };
export const MOBILE: Viewport = { width: 375, height: 740 };

/** A page plus the problems it reported: uncaught exceptions and console errors. */
export interface OpenedPage {
  page: Page;
  /** uncaught exceptions and `console.error` messages, in order. */
  errors: string[];
}

export interface Browser {
  context: BrowserContext;
  /**
   * Opens a new page at this viewport size and navigates to `url` (waits for `load`); `beforeLoad`
   * runs in the page before any of its own scripts (an observer that timestamps what appears, say).
   */
  open(url: string, viewport: Viewport, beforeLoad?: () => void): Promise<OpenedPage>;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a fresh profile, removed again on `close()`. The app's service
 * worker is blocked unless `serviceWorkers: 'allow'`: a worker answers from its caches where a
 * journey's `page.route` would hold or change an answer, and one journey's worker would carry its
 * caches into the next test of the file. The offline journey allows it.
 */
export async function launchBrowser(options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<Browser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'xpoint-e2e-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      serviceWorkers: options.serviceWorkers ?? 'block',
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw new Error(
      `could not launch ${CHROMIUM_PATH} (run \`node scripts/ensure-chromium.mjs\`): ${String(error)}`,
      { cause: error },
    );
  }

  return {
    context,
    async open(url, viewport, beforeLoad) {
      const page = await context.newPage();
      if (beforeLoad) await page.addInitScript(beforeLoad);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const { url } = message.location();
        errors.push(`console.error: ${message.text()}${url ? ` (${url})` : ''}`);
      });
      await page.setViewportSize(viewport);
      await page.goto(url, { waitUntil: 'load' });
      return { page, errors };
    },
    async close() {
      try {
        await context.close();
      } finally {
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Waits until the map has rendered its first frame and gone idle (MapView sets the flag). A
 * locator, not `waitForFunction`: the page's CSP forbids the eval that polling a string needs.
 */
export async function waitForMapReady(page: Page, timeout = 30_000): Promise<void> {
  await page.locator('body[data-map-ready="true"]').waitFor({ state: 'attached', timeout });
}

/** Saves a full-page screenshot under test-results/ (gitignored) and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const file = path.resolve('test-results', `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}
