import type { Map as MaplibreMap } from 'maplibre-gl';
import { Workbox } from 'workbox-window';
import { onMapReady, styleUrl } from '../map/mapHandle';
import { SW_MESSAGES, SW_URL } from './contract';
import { reportUpdateWaiting } from './updateState';

/** At most this many tiles of the view are sent to be kept at once (a 4K screen at a fractional zoom). */
const MAX_TILES_KEPT = 96;

/**
 * Registers the service worker (sw.ts) and wires its two conversations with the page:
 * - **a new version**: when a new deployment's worker is installed and waiting, the notice asks the
 *   visitor to reload (UpdateNotice.tsx); accepting tells the worker to take over, and the page
 *   reloads once it has. Until then this page keeps the worker, and so the scripts, it started with;
 * - **the first visit's map**: a page the worker did not control when it loaded (the first visit)
 *   fetched its style and tiles unseen by it, and MapLibre's workers made before it stay unseen for
 *   the page's life. So once the worker controls the page, the page sends the addresses of the style
 *   and of the tiles it shows, and again after every move: the worker keeps them (from the browser's
 *   HTTP cache, no second download), so the area seen is there offline.
 */
export function registerServiceWorker(): void {
  const workbox = new Workbox(SW_URL, { scope: '/' });
  const controlledAtLoad = navigator.serviceWorker.controller !== null;

  let accepted = false;
  workbox.addEventListener('waiting', () => {
    reportUpdateWaiting(() => {
      accepted = true;
      void takeOverByWaitingWorker();
    });
  });
  // the new version accepted in another tab took this page's worker too: this page's later scripts
  // may be gone from it, so it says so and offers the reload
  if (controlledAtLoad)
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (!accepted) reportUpdateWaiting(() => window.location.reload());
    });

  if (!controlledAtLoad) {
    const sent = new Set<string>();
    const keep = (urls: string[]) => {
      const fresh = urls.filter((url) => !sent.has(url));
      for (const url of fresh) sent.add(url);
      if (fresh.length > 0)
        void workbox.messageSW({ type: SW_MESSAGES.keep, urls: fresh }).catch(() => undefined);
    };
    const whenControlled = new Promise<void>((resolve) => {
      if (navigator.serviceWorker.controller !== null) resolve();
      else navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true });
    });
    onMapReady((map) => {
      void whenControlled.then(() => {
        keep([styleUrl(), ...viewTileUrls(map)]);
        map.on('idle', () => keep(viewTileUrls(map)));
      });
    });
  }

  void workbox.register().catch((error: unknown) => {
    console.warn('XPoint: the service worker could not be registered', error);
  });
}

/**
 * The visitor accepted the new version: the waiting worker is told to take over, and the page reloads
 * once it controls the page (once only). Asked of the browser's registration itself, not of Workbox's
 * record of it: an update found while Workbox was still registering (the page's registration waits
 * for idle after load) was waiting in the browser, and the notice showed, but Workbox's message went
 * nowhere and the page never reloaded (a clean-clone journey on a slow machine).
 */
async function takeOverByWaitingWorker(): Promise<void> {
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  const registration = await navigator.serviceWorker.getRegistration();
  const waiting = registration?.waiting ?? null;
  // already active (accepted in another tab meanwhile): this page's worker changed, or will
  if (waiting === null) {
    if (registration?.active !== navigator.serviceWorker.controller) window.location.reload();
    return;
  }
  waiting.postMessage({ type: SW_MESSAGES.skipWaiting });
}

/**
 * The addresses of the vector tiles covering the map's view, source by source, at the zoom MapLibre
 * asks them at (the view's zoom, rounded down, for its 512-pixel vector tiles, within the source's
 * zoom range).
 */
export function viewTileUrls(map: MaplibreMap): string[] {
  const bounds = map.getBounds();
  const urls: string[] = [];
  for (const source of Object.values(map.getStyle().sources)) {
    if (source.type !== 'vector' || source.tiles === undefined) continue;
    const template = source.tiles[0];
    if (template === undefined) continue;
    const z = Math.max(source.minzoom ?? 0, Math.min(source.maxzoom ?? 22, Math.floor(map.getZoom())));
    const [x0, y0] = tileOf(bounds.getWest(), bounds.getNorth(), z);
    const [x1, y1] = tileOf(bounds.getEast(), bounds.getSouth(), z);
    for (let x = x0; x <= x1; x += 1)
      for (let y = y0; y <= y1; y += 1)
        urls.push(template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)));
  }
  return urls.slice(0, MAX_TILES_KEPT);
}

/** The tile at zoom `z` holding a place (Web Mercator), clamped to the world. */
function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const clampedLat = Math.max(-85.0511, Math.min(85.0511, lat));
  const x = Math.floor(((lng + 180) / 360) * n);
  const radians = (clampedLat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * n);
  return [Math.max(0, Math.min(n - 1, x)), Math.max(0, Math.min(n - 1, y))];
}
