import type { Page } from 'playwright-core';
import type { PageWindow } from './globals';

declare const window: PageWindow;

/**
 * Resolves once the page's map has rendered everything it is loading (MapLibre's `idle`), or at once
 * when it is loaded and still already. Throws when the page has no map yet (see waitForMapReady).
 */
export async function mapIdle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const map = window.__xpointMap;
        if (!map) throw new Error('the map is not ready');
        if (map.loaded() && !map.isMoving()) resolve();
        else map.once('idle', () => resolve());
      }),
  );
}

/**
 * Like `mapIdle`, but also resolves once the map has stopped moving for 3 s: live beams may be
 * animating (they repaint every frame while they pulse), and then `idle` waits for them to fade.
 */
export async function mapIdleOrStill(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const map = window.__xpointMap;
        if (!map) throw new Error('the map is not ready');
        if (map.loaded() && !map.isMoving()) return resolve();
        map.once('idle', () => resolve());
        const settle = () => {
          if (map.isMoving()) setTimeout(settle, 3000);
          else resolve();
        };
        setTimeout(settle, 3000);
      }),
  );
}

/**
 * Where a longitude and latitude are drawn on the page, in CSS pixels from the page's top left (the
 * map's projection plus the canvas's place on the page): the point to click. No waiting: let the map
 * settle first (mapIdle).
 */
export async function pagePixel(page: Page, lon: number, lat: number): Promise<{ x: number; y: number }> {
  return await page.evaluate(
    ([lon, lat]) => {
      const map = window.__xpointMap;
      if (!map) throw new Error('the map is not ready');
      const { x, y } = map.project([lon, lat]);
      const box = map.getCanvas().getBoundingClientRect();
      return { x: box.left + x, y: box.top + y };
    },
    [lon, lat] as [number, number],
  );
}
