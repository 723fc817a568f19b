import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { DESKTOP, MOBILE, saveScreenshot, waitForMapReady, type Viewport } from './support/browser';
import { startJourney } from './support/journey';
import { SW_CACHES } from '../../src/web/pwa/contract';

/** The worker script of the build the journey's server serves. */
const WORKER_SCRIPT = fileURLToPath(new URL('../../dist/web/sw.js', import.meta.url));

/** Two places far apart: the second is seen only once the worker controls the page from its load. */
const FIRST_AREA = { zoom: 13, lat: 40.7128, lon: -74.006 };
const SECOND_AREA = { zoom: 12, lat: 38.7223, lon: -9.1393 };

/** The share of pixels that differ clearly between two screenshots of the same size. */
async function differingShare(a: Buffer, b: Buffer): Promise<number> {
  const [one, two] = await Promise.all(
    [a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  if (one === undefined || two === undefined) throw new Error('no screenshot');
  expect(two.info.width).toBe(one.info.width);
  let differing = 0;
  const pixels = one.info.width * one.info.height;
  for (let i = 0; i < pixels * 3; i += 3) {
    const delta = Math.max(
      Math.abs(one.data[i]! - two.data[i]!),
      Math.abs(one.data[i + 1]! - two.data[i + 1]!),
      Math.abs(one.data[i + 2]! - two.data[i + 2]!),
    );
    if (delta > 48) differing += 1;
  }
  return differing / pixels;
}

/** The screen without the connection's banners, which differ on purpose between the two. */
async function mapPicture(page: Page): Promise<Buffer> {
  await page.evaluate(`{
    const style = document.createElement('style');
    style.id = 'offline-test-hide';
    style.textContent = '.pinger-banners, .update-notice { display: none !important; }';
    document.head.append(style);
  }`);
  try {
    return await page.screenshot({ animations: 'disabled' });
  } finally {
    await page.evaluate("document.getElementById('offline-test-hide')?.remove()");
  }
}

const cachedCount = (page: Page, cache: string) =>
  page.evaluate<number>(`caches.open(${JSON.stringify(cache)}).then((c) => c.keys()).then((k) => k.length)`);

/**
 * Installable, and the last area seen when the network goes (issue 23), in a browser that lets the
 * app's service worker run: the map loads, the browser goes offline, the page reloads, and the app
 * shell, the map of the area last seen and a plain "You are offline" come back, with no error thrown;
 * back online, the live socket connects again. The first test is the first visit (the worker installs
 * while the page shows the map and keeps what it shows); the second, in the same browser, a later
 * visit to another area (the worker controls the page, and MapLibre's workers, from the start). The
 * third is a new deployment: its worker waits, the page says so and runs on until the visitor reloads.
 */
describe('offline, with the service worker', () => {
  const journey = startJourney({ serviceWorkers: 'allow' });

  async function offlineRoundTrip(viewport: Viewport, area: typeof FIRST_AREA, firstVisit: boolean) {
    const { context } = journey.browser;
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setViewportSize(viewport);
    try {
      await page.goto(journey.url(`/maps#${area.zoom}/${area.lat}/${area.lon}`), { waitUntil: 'load' });
      await waitForMapReady(page);
      await expect
        .poll(() => page.evaluate<boolean>('navigator.serviceWorker.controller !== null'), {
          timeout: 60_000,
        })
        .toBe(true);
      // the style with its sprite and glyphs, and the tiles of the view, kept by the worker
      await expect.poll(() => cachedCount(page, SW_CACHES.basemap), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => cachedCount(page, SW_CACHES.mapStyle), { timeout: 30_000 }).toBeGreaterThan(4);
      await expect.poll(() => cachedCount(page, SW_CACHES.points), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect
        .poll(() => page.evaluate<number>('caches.keys().then((names) => names.length)'))
        .toBeGreaterThanOrEqual(4);
      const online = await mapPicture(page);
      await saveScreenshot(page, `offline-${viewport.width}-online`);
      if (firstVisit) {
        // installable: the page names its manifest, which names the app and its icons, made by the build
        const manifest = await page.evaluate<{
          type: string;
          name: string;
          icons: string[];
          types: string[];
        }>(`
          (async () => {
            const response = await fetch(document.querySelector('link[rel=manifest]').href);
            const body = await response.json();
            const icons = body.icons.map((icon) => icon.src + ' ' + icon.sizes + ' ' + icon.purpose);
            const types = await Promise.all(
              body.icons.map((icon) => fetch(icon.src).then((r) => r.headers.get('content-type'))),
            );
            return { type: response.headers.get('content-type'), name: body.name, icons, types };
          })()`);
        expect(manifest).toEqual({
          type: expect.stringContaining('application/manifest+json'),
          name: 'XPoint',
          icons: [
            '/icons/icon-192.png 192x192 any',
            '/icons/icon-512.png 512x512 any',
            '/icons/icon-512.png 512x512 maskable',
          ],
          types: ['image/png', 'image/png', 'image/png'],
        });
      }

      // the browser's own HTTP cache emptied: only the worker's caches can answer now
      const devtools = await context.newCDPSession(page);
      await devtools.send('Network.clearBrowserCache');
      await devtools.detach();
      await context.setOffline(true);
      await page.reload({ waitUntil: 'load' });
      // the app shell from the precache: the app's own top bar, the map, and what is going on
      await page.locator('.topbar input[role="combobox"]').waitFor();
      await waitForMapReady(page);
      const banner = page.getByRole('alert').filter({ hasText: 'You are offline.' });
      await banner.waitFor();
      await expect(banner.textContent()).resolves.toContain('The map shows the area you last saw');
      // the same area, drawn from what the worker kept: a map without its tiles would be its water alone
      const offline = await mapPicture(page);
      await saveScreenshot(page, `offline-${viewport.width}-offline`);
      expect(await differingShare(online, offline)).toBeLessThan(0.05);
      expect(errors).toEqual([]);

      await context.setOffline(false);
      await page.getByRole('status').getByText('Internet Connection restored!').waitFor();
      // the live socket again: the indicator says connected only with the socket open
      await page.getByRole('img', { name: 'Connected', exact: true }).waitFor({ timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.setOffline(false);
      await page.close();
    }
  }

  test('given a first visit at 375 px, when the map has shown and the browser goes offline and reloads, then the shell, the area and "You are offline" come back, and the live socket after', async () => {
    await offlineRoundTrip(MOBILE, FIRST_AREA, true);
  });

  test('given a later visit at 1280 px to another area, when the browser goes offline and reloads, then that area comes back from the cache, and the live socket after', async () => {
    await offlineRoundTrip(DESKTOP, SECOND_AREA, false);
  });

  test("given the app open under its worker, when a new deployment's worker is installed, then the page says a new version is ready and keeps running until Reload, which brings it under the new one", async () => {
    const { context } = journey.browser;
    const page = await context.newPage();
    await page.setViewportSize(DESKTOP);
    const workerScript = await readFile(WORKER_SCRIPT, 'utf8');
    const registration = (expression: string) =>
      page.evaluate<boolean>(`navigator.serviceWorker.getRegistration().then((r) => ${expression})`);
    try {
      await page.goto(journey.url('/maps'), { waitUntil: 'load' });
      await waitForMapReady(page);
      await expect
        .poll(() => page.evaluate<boolean>('navigator.serviceWorker.controller !== null'), {
          timeout: 60_000,
        })
        .toBe(true);
      await page.evaluate('window.beforeTheUpdate = true');

      // the next deployment: the build's worker script, differing by a line (a browser's update check
      // reads it past every cache, and Playwright's routing does not see that request); journeys run
      // one file at a time, and the script is put back as it was below
      await writeFile(WORKER_SCRIPT, `${workerScript}\n// the next deployment\n`);
      await page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');
      const notice = page.getByRole('status').filter({ hasText: 'A new version of XPoint is ready.' });
      await notice.waitFor({ timeout: 30_000 });
      await saveScreenshot(page, 'offline-update-notice-1280');
      // it waits for the visitor: same page, the old worker still in charge
      expect(await registration('r.waiting !== null')).toBe(true);
      expect(await page.evaluate<boolean>('window.beforeTheUpdate === true')).toBe(true);

      const reloaded = page.waitForEvent('load');
      await notice.getByRole('button', { name: 'Reload' }).click();
      await reloaded;
      await waitForMapReady(page);
      expect(await page.evaluate<boolean>('window.beforeTheUpdate === true')).toBe(false);
      await expect.poll(() => registration('r.waiting === null && r.active !== null')).toBe(true);
      expect(await page.evaluate<boolean>('navigator.serviceWorker.controller !== null')).toBe(true);
      await expect(notice.count()).resolves.toBe(0);
    } finally {
      await writeFile(WORKER_SCRIPT, workerScript);
      await page.close();
    }
  });
});
