import type { Page } from 'playwright-core';
import type { PageWindow } from './globals';

declare const window: PageWindow;

/** The style layer the live beams are drawn in. */
const BEAM_LAYER = 'live-beams-dot';

/**
 * The ids and kinds of the beams MapLibre drew in the beam layer, as it is now (empty before the map
 * or the layer exists): poll it to wait for a beam.
 */
export async function drawnBeams(page: Page): Promise<Map<string, string>> {
  const features = await page.evaluate((layer) => {
    const map = window.__xpointMap;
    if (!map || map.getLayer(layer) === undefined) return [];
    return map.queryRenderedFeatures({ layers: [layer] }).map((f) => ({
      id: String(f.properties.id),
      kind: String(f.properties.kind),
    }));
  }, BEAM_LAYER);
  return new Map(features.map((f) => [f.id, f.kind]));
}

/** Waits until the page's device channel has joined (the live layer sets the body's flag). */
export async function waitJoined(page: Page, timeout = 20_000): Promise<void> {
  await page.locator('body[data-live-joined="true"]').waitFor({ state: 'attached', timeout });
}

/**
 * When a WebSocket frame naming each of `ids` first reached the page (Date.now()), filled in as frames
 * arrive: the live layer's budget is about delivery, which a software-WebGL draw on a busy machine then
 * follows. Attach it before the page opens its socket.
 */
export function watchArrivals(page: Page, ids: readonly string[]): Map<string, number> {
  const arrived = new Map<string, number>();
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => {
      if (typeof frame.payload !== 'string') return;
      for (const id of ids) if (!arrived.has(id) && frame.payload.includes(id)) arrived.set(id, Date.now());
    });
  });
  return arrived;
}
