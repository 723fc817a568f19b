import { TILE_PATHS } from '../../shared/map/contract';

/**
 * What the page and the service worker (sw.ts) agree on: the worker's address, its messages and its
 * caches' names. Both import it; it imports nothing of either.
 */

/** Where the build writes the worker (vite.config.ts), at the root so that its scope is the whole site. */
export const SW_URL = '/sw.js';

export const SW_MESSAGES = {
  /** The page's "new version" notice was accepted: the waiting worker takes over now. */
  skipWaiting: 'SKIP_WAITING',
  /** `{ type, urls }`: map resources the page showed before the worker controlled it, to keep. */
  keep: 'KEEP_URLS',
} as const;

/** Run-time caches (the precache is Workbox's own). A new name drops the old cache's entries. */
export const SW_CACHES = {
  assets: 'xp-assets-v1',
  mapStyle: 'xp-map-style-v1',
  basemap: 'xp-basemap-tiles-v1',
  points: 'xp-point-tiles-v1',
} as const;

const GLYPHS_PREFIX = TILE_PATHS.glyphs.slice(0, TILE_PATHS.glyphs.indexOf('{'));

/** The style, its sprite (every scale and format) and its glyphs. */
export function isMapStyleRequest(pathname: string): boolean {
  return (
    pathname === TILE_PATHS.style ||
    pathname.startsWith(TILE_PATHS.sprite) ||
    pathname.startsWith(GLYPHS_PREFIX)
  );
}
