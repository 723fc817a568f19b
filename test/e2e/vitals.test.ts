import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, waitForMapReady, type Browser } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { withStore } from './support/store';

/**
 * Real-user timings (issue 23), as a deployment sees them: a visitor opens a full-screen place on a
 * phone and the map on a desktop, then leaves each page; each page's Core Web Vitals, measured by
 * web-vitals in the visitor's Chromium, reach the server in a beacon and show in its sums per screen.
 */
interface Summary {
  screens: { screen: string; metrics: { name: string; count: number; p75: number }[] }[];
}

describe('real-user timings', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startServer({ seed: 30 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const sums = async (): Promise<Summary> => {
    if (server === undefined) throw new Error('the journey did not start');
    const res = await fetch(`${server.url}/v1/webonly/vitals?days=1`);
    expect(res.status).toBe(200);
    return (await res.json()) as Summary;
  };
  const countOf = (summary: Summary, screen: string, metric: string) =>
    summary.screens.find((entry) => entry.screen === screen)?.metrics.find((m) => m.name === metric)?.count ??
    0;

  /**
   * Waits until the page listens (its reporter loads once idle), then leaves it for another address as
   * a visitor would. The tab stays open: a tab closed the instant it navigates can be torn down before
   * the old page's beacon is out, which no person's browser does.
   */
  async function leave(page: Page): Promise<void> {
    await page.locator('html[data-vitals="listening"]').waitFor({ state: 'attached' });
    await page.goto('about:blank');
  }

  test('given a place opened full-screen at 375 px and the map at 1280 px, when each page is left, then their LCP, FCP and TTFB are counted under their screens', async () => {
    if (browser === undefined || server === undefined) throw new Error('the journey did not start');
    const before = await sums();
    const point = await withStore(server.dataDir, (store) =>
      store.db.selectFrom('points').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow(),
    );

    const fullscreen = await browser.open(`${server.url}/f/${point.id}`, MOBILE);
    await fullscreen.page.getByRole('heading', { level: 1 }).waitFor();
    await leave(fullscreen.page);

    const map = await browser.open(`${server.url}/maps#12/40.73/-73.99`, DESKTOP);
    await waitForMapReady(map.page);
    await leave(map.page);

    // the beacons are sent as the pages go: wait for the server to have counted them
    await expect
      .poll(
        async () => {
          const now = await sums();
          return ['LCP', 'FCP', 'TTFB'].flatMap((metric) => [
            countOf(now, 'fullscreen', metric) - countOf(before, 'fullscreen', metric),
            countOf(now, 'map', metric) - countOf(before, 'map', metric),
          ]);
        },
        { timeout: 15_000 },
      )
      .toEqual([1, 1, 1, 1, 1, 1]);
    const after = await sums();
    const lcp = after.screens
      .find((entry) => entry.screen === 'fullscreen')
      ?.metrics.find((m) => m.name === 'LCP');
    // a real paint on this machine: more than nothing, less than a minute
    expect(lcp?.p75).toBeGreaterThan(0);
    expect(lcp?.p75).toBeLessThan(60_000);
    expect([...fullscreen.errors, ...map.errors]).toEqual([]);
    await fullscreen.page.close();
    await map.page.close();
  });
});
