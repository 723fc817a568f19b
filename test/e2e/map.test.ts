import { describe, expect, test } from 'vitest';
import { DESKTOP, MOBILE, saveScreenshot, type OpenedPage } from './support/browser';
import { openWithMap, startJourney } from './support/journey';

/** The map canvas's rendered size in CSS pixels, or null when it is missing or hidden. */
async function canvasBox({ page }: OpenedPage) {
  const canvas = page.locator('canvas.maplibregl-canvas');
  if ((await canvas.count()) !== 1 || !(await canvas.isVisible())) return null;
  return await canvas.boundingBox();
}

describe('the map page', () => {
  const journey = startJourney();

  const openMap = (path: string, viewport: typeof DESKTOP): Promise<OpenedPage> =>
    openWithMap(journey.browser, journey.url(path), viewport);

  test('given a desktop browser, when it opens /, then the map canvas fills the window', async () => {
    const opened = await openMap('/', DESKTOP);
    await saveScreenshot(opened.page, 'map-desktop-1280x800');

    const box = await canvasBox(opened);
    expect(box).not.toBeNull();
    expect(box?.width).toBe(DESKTOP.width);
    expect(box?.height).toBe(DESKTOP.height);
    expect(await opened.page.title()).toBe("XPoint — what's around you");
    await expect(opened.page.locator('header.topbar').textContent()).resolves.toContain('XPoint');
    expect(opened.errors).toEqual([]);
    await opened.page.close();
  });

  test('given a 375 px phone, when it opens /, then the map shows and nothing scrolls sideways', async () => {
    const opened = await openMap('/', MOBILE);
    await saveScreenshot(opened.page, 'map-mobile-375x740');

    const box = await canvasBox(opened);
    expect(box?.width).toBe(MOBILE.width);
    expect(box?.height).toBe(MOBILE.height);
    const topbar = await opened.page.locator('header.topbar').boundingBox();
    expect(topbar).not.toBeNull();
    expect(topbar?.x).toBeGreaterThanOrEqual(0);
    expect((topbar?.x ?? 0) + (topbar?.width ?? Infinity)).toBeLessThanOrEqual(MOBILE.width);
    const scrollWidth = await opened.page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(MOBILE.width);
    expect(opened.errors).toEqual([]);
    await opened.page.close();
  });

  test('given a deep link to a page the app does not know yet, when it is opened, then the app still shows the map', async () => {
    const opened = await openMap('/some/deep/link', DESKTOP);

    expect(await canvasBox(opened)).not.toBeNull();
    expect(new URL(opened.page.url()).pathname).toBe('/some/deep/link');
    expect(opened.errors).toEqual([]);
    await opened.page.close();
  });

  test('given the server is up, when /healthz is asked, then it answers 200 {"status":"ok"}', async () => {
    const response = await fetch(journey.url('/healthz'));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
