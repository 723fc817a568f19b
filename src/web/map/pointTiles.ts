import type { Map as MaplibreMap, VectorTileSource } from 'maplibre-gl';
import { POINTS_SOURCE, TILE_PATHS } from '../../shared/map/contract';
import { onMapReady } from './mapHandle';

/**
 * The server applies a write to its point tiles from the store's change feed, which it reads every
 * 500 ms (src/server/tiles/points/service.ts). A refresh right after the write may still get the old
 * tiles, so the map asks again once the feed has surely been read.
 */
export const POINT_TILES_SETTLE_MS = [0, 800, 2000] as const;

let generation = 0;

/** Fetches the visible point tiles anew: a new address, so neither MapLibre nor the HTTP cache reuses old ones. */
function reload(map: MaplibreMap): void {
  const source = map.getSource<VectorTileSource>(POINTS_SOURCE);
  if (source === undefined) return;
  generation += 1;
  source.setTiles([`${window.location.origin}${TILE_PATHS.points}?fresh=${generation}`]);
}

/**
 * After a write that adds, moves or removes points or events (a deletion): the map's point tiles
 * are reloaded, so what changed shows at once, without a page reload.
 */
export function refreshPointTiles(): void {
  for (const delay of POINT_TILES_SETTLE_MS) {
    setTimeout(() => {
      onMapReady(reload);
    }, delay);
  }
}

/** Longest wait refreshPointTilesAt schedules (setTimeout's limit is about 24.8 days; a day is plenty). */
const MAX_AT_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * When something on the map stops being shown at a known time with no write to tell anyone (a post's
 * expiry, issue 17): the server drops it from its tiles at that moment, and the map asks for its
 * tiles again just after, so it leaves the visitor's map too. Times past or more than a day away are
 * ignored (the map's own moves and refreshes fetch tiles often enough by then).
 */
export function refreshPointTilesAt(time: number): void {
  const delay = time - Date.now();
  if (!Number.isFinite(delay) || delay < 0 || delay > MAX_AT_DELAY_MS) return;
  // a few ms after: the server compares with its own clock
  setTimeout(() => {
    onMapReady(reload);
  }, delay + 50);
}
