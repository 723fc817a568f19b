import type { Map as MaplibreMap, Marker, Popup, StyleSpecification } from 'maplibre-gl';
import { TILE_PATHS, type LayerGroup } from '../../shared/map/contract';
import type { MapLocation } from '../../shared/address';

/**
 * The map's handle for the rest of the app (issue 23): the mounted map's state and what panels ask of
 * it (reveal a place, the visible bounds, claim clicks, listen for moves), with no maplibre code, so
 * the first screen's JavaScript does without the map library. The map itself is MapView.tsx, a chunk
 * of its own loaded once the first screen has rendered; until it mounts these answer "no map yet".
 */

declare global {
  interface Window {
    /** The live map, for browser tests and debugging; set once the map is first idle. */
    __xpointMap?: MaplibreMap;
  }
}

/**
 * Who moved the map (maputnik's convention): the app (the hash changed, a link) or the visitor.
 * Moves the app makes are passed as event data, so the `moveend` they cause does not write back the
 * hash they came from, and the two never chase each other.
 */
export type MoveSource = 'map' | 'app' | 'reveal';
export const FROM_APP = { from: 'app' satisfies MoveSource };

/** A cluster the visitor clicked: enough to list its members and to come back to this view. */
export interface ClusterClick {
  group: LayerGroup;
  clusterId: number;
  loc: MapLocation;
}

/**
 * The server's style (basemap, glyphs, sprite, point layers), addressed absolutely so MapLibre's
 * workers resolve it the same way as the page.
 */
export function styleUrl(origin: string = window.location.origin): string {
  const url = new URL(TILE_PATHS.style, origin);
  // §7: the style is asked for with its version, the image format the browser decodes best and the layers
  url.search = new URLSearchParams({
    v: STYLE_VERSION,
    imgformat: supportsWebp() ? 'webp' : 'png',
    layers: 'all',
  }).toString();
  return url.toString();
}

/** The style's version in its address: a new one is a new address, past any cache. */
const STYLE_VERSION = '2';

let webp: boolean | null = null;
/** Whether this browser encodes (and so decodes) WebP: a canvas says so at once, without a network trip. */
export function supportsWebp(): boolean {
  if (webp === null) {
    try {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      webp = canvas.toDataURL('image/webp').startsWith('data:image/webp');
    } catch {
      webp = false;
    }
  }
  return webp;
}

/**
 * The first screen is the map, so its slowest input starts as soon as the app's entry runs, not after
 * the map's chunk and React's first render: the style JSON, fetched once here and handed to the first
 * map (later maps fetch their own). The worker starts (prewarm) when MapView.tsx loads. Measured by
 * `npm run bench:map`.
 */
// (not on the server, which renders a search page's results with the search screen's own panel)
let earlyStyle: Promise<StyleSpecification | null> | null =
  typeof window === 'undefined' ? null : fetchStyle();

function fetchStyle(): Promise<StyleSpecification | null> {
  return fetch(styleUrl(), { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<StyleSpecification>) : null))
    .catch(() => null);
}

/** The prefetched style, once; null when it failed (the map then asks for the URL and reports). */
export function takeEarlyStyle(): Promise<StyleSpecification | null> {
  const style = earlyStyle ?? Promise.resolve(null);
  earlyStyle = null;
  return style;
}

/** The mounted map, so panels over it can hand focus back and show what they describe. */
let mountedMap: MaplibreMap | null = null;
export function focusMap(): void {
  mountedMap?.getCanvas().focus();
}

/** Pixels kept clear around a revealed place, so its marker is never at the very edge. */
const REVEAL_MARGIN_PX = 48;
/** A place revealed from far away is shown at least this close (street level). */
const REVEAL_MIN_ZOOM = 15;

/**
 * Brings a place the side panel shows into the part of the map the panel leaves uncovered (beside
 * it on wide screens, above the bottom sheet on phones). A place already in view stays where it is:
 * the map only moves when it has to, and then with a short ease, not a jump.
 */
export function revealOnMap(lng: number, lat: number): void {
  const map = mountedMap;
  if (map === null || !Number.isFinite(lng) || !Number.isFinite(lat)) return;
  const canvas = map.getCanvas().getBoundingClientRect();
  const cover = { left: 0, right: 0, top: 0, bottom: 0 };
  const panel = document.querySelector('.side-panel')?.getBoundingClientRect();
  if (panel !== undefined && panel.width > 0) {
    // a sheet across the whole width covers the bottom; a panel on one side covers that side
    if (panel.width >= canvas.width * 0.9) cover.bottom = Math.max(0, canvas.bottom - panel.top);
    else cover.left = Math.max(0, panel.right - canvas.left);
  }
  const at = map.project([lng, lat]);
  const inView =
    at.x >= cover.left + REVEAL_MARGIN_PX &&
    at.x <= canvas.width - cover.right - REVEAL_MARGIN_PX &&
    at.y >= cover.top + REVEAL_MARGIN_PX &&
    at.y <= canvas.height - cover.bottom - REVEAL_MARGIN_PX;
  if (inView) return;
  map.easeTo(
    {
      center: [lng, lat],
      zoom: Math.max(map.getZoom(), REVEAL_MIN_ZOOM),
      offset: [(cover.left - cover.right) / 2, (cover.top - cover.bottom) / 2],
      duration: 400,
    },
    { from: 'reveal' satisfies MoveSource },
  );
}

/** The centre of the visible map, where a search without bounds ranks by distance from. */
export function visibleCentre(): { lat: number; lon: number } | null {
  const centre = mountedMap?.getCenter().wrap();
  return centre === undefined ? null : { lat: centre.lat, lon: centre.lng };
}

/** The bounds of the visible map as the search calls take them (§7), or null before the map exists. */
export function visibleBounds(): {
  southwest: { lat: number; lon: number };
  northeast: { lat: number; lon: number };
} | null {
  const map = mountedMap;
  if (map === null) return null;
  const bounds = map.getBounds();
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  const clampLat = (value: number) => Math.max(-90, Math.min(90, round(value)));
  const wrapLon = (value: number) => round(((((value + 180) % 360) + 360) % 360) - 180);
  const west = bounds.getWest();
  const east = bounds.getEast();
  const whole = east - west >= 360;
  return {
    southwest: { lat: clampLat(bounds.getSouth()), lon: whole ? -180 : wrapLon(west) },
    northeast: { lat: clampLat(bounds.getNorth()), lon: whole ? 180 : wrapLon(east) },
  };
}

/** Moves the visitor made (drag, zoom, keys), not the app: search's update-on-move listens (§4). */
const visitorMoveListeners = new Set<() => void>();
export function onVisitorMove(listener: () => void): () => void {
  visitorMoveListeners.add(listener);
  return () => visitorMoveListeners.delete(listener);
}

/**
 * A panel that places something on the map (add-new step 3) claims its clicks: while claimed, a click
 * anywhere hands its coordinates to the claimant and never opens a point or a cluster, so the
 * visitor cannot be navigated away from a half-filled form.
 */
let clickClaim: ((lngLat: { lng: number; lat: number }) => void) | null = null;
export function claimMapClicks(onClick: (lngLat: { lng: number; lat: number }) => void): () => void {
  clickClaim = onClick;
  if (mountedMap !== null) mountedMap.getCanvas().style.cursor = 'crosshair';
  return () => {
    if (clickClaim !== onClick) return;
    clickClaim = null;
    if (mountedMap !== null) mountedMap.getCanvas().style.cursor = '';
  };
}

/**
 * The place `offsetPx` pixels below the centre of the part of the map the side panel leaves
 * uncovered (beside it on wide screens, above the bottom sheet on phones), or null before the map
 * exists.
 */
export function placeBelowMapCenter(offsetPx: number): { lng: number; lat: number } | null {
  const map = mountedMap;
  if (map === null) return null;
  const { left, right, bottom } = uncoveredArea(map);
  const y = Math.min(bottom - 1, bottom / 2 + offsetPx);
  const at = map.unproject([(left + right) / 2, Math.max(0, y)]).wrap();
  return { lng: at.lng, lat: at.lat };
}

/** The part of the map's canvas the side panel leaves uncovered, in canvas pixels. */
export interface MapArea {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function uncoveredArea(map: MaplibreMap): MapArea {
  const canvas = map.getCanvas().getBoundingClientRect();
  const area = { left: 0, top: 0, right: canvas.width, bottom: canvas.height };
  const panel = document.querySelector('.side-panel')?.getBoundingClientRect();
  if (panel !== undefined && panel.width > 0) {
    // a sheet across the whole width covers the bottom; a panel on one side covers that side
    if (panel.width >= canvas.width * 0.9)
      area.bottom = Math.max(0, Math.min(area.bottom, panel.top - canvas.top));
    else area.left = Math.max(0, Math.min(canvas.width, panel.right - canvas.left));
  }
  return area;
}

/** Where a place is on the map's canvas, with the uncovered area around it; null before the map exists. */
export function placeOnScreen(lng: number, lat: number): { x: number; y: number; area: MapArea } | null {
  const map = mountedMap;
  if (map === null) return null;
  const { x, y } = map.project([lng, lat]);
  return { x, y, area: uncoveredArea(map) };
}

/** Adds a marker or a popup to the mounted map; returns a function that removes it again. */
export function addToMap(layer: Marker | Popup): () => void {
  const map = mountedMap;
  if (map === null) return () => undefined;
  layer.addTo(map);
  return () => void layer.remove();
}

/** Calls `listener` whenever the map stops moving, whoever moved it. */
const moveEndListeners = new Set<() => void>();
export function onMapMoveEnd(listener: () => void): () => void {
  moveEndListeners.add(listener);
  return () => moveEndListeners.delete(listener);
}

/**
 * Map click handlers for layers drawn over the points (live beams). Each is told what the click hit
 * on the point layers: a point's id (`appnetid`), or null when it hit no point and no cluster. The
 * first to answer true claims the click; otherwise the point or cluster under it opens as before.
 */
export type MapClickHandler = (point: { x: number; y: number }, underneath: string | null) => boolean;
const clickHandlers = new Set<MapClickHandler>();
export function addMapClickHandler(handler: MapClickHandler): () => void {
  clickHandlers.add(handler);
  return () => clickHandlers.delete(handler);
}

/** The map once it has first gone idle; later work (live activity) waits for it. */
let readyMap: MaplibreMap | null = null;
const readyListeners = new Set<(map: MaplibreMap) => void>();
export function onMapReady(listener: (map: MaplibreMap) => void): () => void {
  if (readyMap !== null) {
    const map = readyMap;
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled && readyMap === map) listener(map);
    });
    return () => {
      cancelled = true;
    };
  }
  readyListeners.add(listener);
  return () => readyListeners.delete(listener);
}

/** Zooms out one step around the current centre (an empty search offers to widen the area). */
export function zoomOutMap(): void {
  mountedMap?.zoomOut({ duration: 300 });
}

/**
 * How the map component (MapView.tsx: a chunk of its own, with maplibre, loaded after the first
 * screen) tells this module about its map, and reads what panels asked of it. Only MapView uses it.
 */
export const mapViewLink = {
  mounted(map: MaplibreMap): void {
    mountedMap = map;
  },
  unmounted(map: MaplibreMap): void {
    if (mountedMap === map) mountedMap = null;
    if (readyMap === map) readyMap = null;
  },
  ready(map: MaplibreMap): void {
    readyMap = map;
    for (const listener of [...readyListeners]) {
      readyListeners.delete(listener);
      listener(map);
    }
  },
  clickClaim: () => clickClaim,
  movedByVisitor(): void {
    for (const listener of visitorMoveListeners) listener();
  },
  moveEnded(): void {
    for (const listener of moveEndListeners) listener();
  },
  clickHandlers: (): Iterable<MapClickHandler> => clickHandlers,
};
