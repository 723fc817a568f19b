/**
 * The map itself, without React (issue 23): made by the early start (src/web/map/boot.ts) while the
 * app's scripts still load, or by the shell's map box (MapView.tsx) when it mounts first, and taken
 * over by that box. It imports maplibre and the map's own small modules, never React, so the early
 * start can run as soon as maplibre has arrived, whatever the app's first screen still waits for.
 */
import {
  AttributionControl,
  Map as MaplibreMap,
  NavigationControl,
  prewarm,
  setWorkerUrl,
} from 'maplibre-gl';
import { LAYER_GROUPS, MAX_ZOOM, MIN_ZOOM, pointLayerIds, type LayerGroup } from '../../shared/map/contract';
import { externalBasemapUrl, mergeOverlay } from '../../shared/map/overlay';
import { markMapDrawn, offerEarlyMapElement } from './earlyMap';
import { loadHiddenGroups } from './layerVisibility';
import { takeEarlyStyle, styleUrl } from './mapHandle';
import { initialLocation } from '../../shared/map/startView';
import { initialBounds } from './mapLocation';
import { MyLocationControl } from './myLocation';
import { attachResultClicks, installResultLayers } from './resultMarkers';
import { installSelectedLayers } from './selectedPlace';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
// maplibre 6 finds its worker with `new URL(..., import.meta.url)`, which Vite does not emit: hand
// it the worker file Vite does emit (notes/offline-map.md).

setWorkerUrl(workerUrl);
// the worker starts as soon as this module runs, before the map is made (`npm run bench:map`)
prewarm();

/**
 * Shows or hides each group's layers. Only real changes are written: any layout change makes
 * MapLibre reload the source's tiles, which would slow the first idle for nothing.
 */
export function applyHiddenGroups(map: MaplibreMap, hidden: ReadonlySet<LayerGroup>): void {
  for (const group of LAYER_GROUPS) {
    const visibility = hidden.has(group) ? 'none' : 'visible';
    for (const id of Object.values(pointLayerIds(group))) {
      if (map.getLayer(id) === undefined) continue;
      const current: unknown = map.getLayoutProperty(id, 'visibility') ?? 'visible';
      if (current !== visibility) map.setLayoutProperty(id, 'visibility', visibility);
    }
  }
}

/**
 * A map and what it has been through, whether the shell's map box made it or the early start did
 * (startMapEarly) before React rendered.
 */
export interface MapCore {
  map: MaplibreMap;
  /** maplibre's container, a child of the shell's map box (moved into it on take-over). */
  element: HTMLDivElement;
  /** The groups the visitor hid, applied on every style load. */
  hidden: ReadonlySet<LayerGroup>;
  styleLoaded: boolean;
  idle: boolean;
  removed: boolean;
}

/** The element maplibre draws into: it fills its box (map.css). */
function mapElement(): HTMLDivElement {
  const element = document.createElement('div');
  element.className = 'map-view__map';
  return element;
}

/**
 * Creates the map in `element` on the address's location (a shared search link's bounds, else the
 * hash, the path's `data=` or the last location's cookie), with the style (the one fetched early
 * when there is one) and what every style load needs: the visitor's hidden groups and the result and
 * selected-place layers. Nothing here depends on React.
 */
function createMapCore(element: HTMLDivElement): MapCore {
  const sources = {
    hash: window.location.hash,
    pathname: window.location.pathname,
    cookies: document.cookie,
  };
  const start = initialLocation(sources);
  const bounds = initialBounds(sources);
  const map = new MaplibreMap({
    container: element,
    // a shared search link opens on its bounds; anything else on the location read above
    ...(bounds === null
      ? { center: [start.lng, start.lat] as [number, number], zoom: start.zoom }
      : { bounds }),
    minZoom: MIN_ZOOM,
    maxZoom: MAX_ZOOM,
    // added with the other controls when the app takes the map (addControls)
    attributionControl: false,
  });
  const core: MapCore = {
    map,
    element,
    hidden: loadHiddenGroups(),
    styleLoaded: false,
    idle: false,
    removed: false,
  };
  // BASEMAP=https://... : our style is an overlay naming an external basemap style; load that
  // one and lay the overlay on top (src/shared/map/overlay.ts).
  map.once('style.load', () => {
    core.styleLoaded = true;
    const overlay = map.getStyle();
    const basemapUrl = externalBasemapUrl(overlay);
    if (basemapUrl !== undefined) {
      map.setStyle(basemapUrl, { transformStyle: (_previous, base) => mergeOverlay(base, overlay) });
    }
  });
  // after every style load (ours, then an external basemap's): the visitor's hidden groups
  map.on('style.load', () => {
    applyHiddenGroups(map, core.hidden);
    installResultLayers(map);
    installSelectedLayers(map);
  });
  map.once('idle', () => {
    core.idle = true;
    // always in a box on the screen, made there or moved there before React paints (Shell.tsx)
    markMapDrawn();
  });
  attachResultClicks(map);

  void takeEarlyStyle().then((style) => {
    if (!core.removed) map.setStyle(style ?? styleUrl());
  });
  return core;
}

/**
 * The map's controls, added when the app takes the map (mapIn), not when the early start makes it:
 * maplibre's stylesheet comes with the app's map (MapView.tsx), and controls added before it sat in
 * the map's top-left corner until it came, then jumped to theirs (0.106 of layout shift at 1280 px).
 */
function addControls(map: MaplibreMap): void {
  map.addControl(new AttributionControl({ compact: true }), 'bottom-right');
  map.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');
  // added after the zoom buttons, so it sits above them (bottom corners stack upwards)
  map.addControl(new MyLocationControl(), 'bottom-right');
}

/** The map the early start made, until the shell's map takes it over. */
let earlyMap: MapCore | null = null;
/** Whether any map has been made in this page: the early start only ever comes first. */
let mapMade = false;

/**
 * Starts the map before the app has rendered (src/web/map/boot.ts, issue 23), in the map's box on the
 * screen: the one the server painted (or the shell's placeholder, if React has replaced the painted
 * page already). The map fills in behind the first screen, and the first MapView that mounts takes
 * it over.
 */
export function startMapEarly(): void {
  const box = document.querySelector('.map-view');
  if (mapMade || box === null) return;
  const element = mapElement();
  box.append(element);
  mapMade = true;
  earlyMap = createMapCore(element);
  offerEarlyMapElement(element);
}

/** The early map moved into `container`, or a new map made in it. */
export function mapIn(container: HTMLDivElement): MapCore {
  const early = earlyMap;
  earlyMap = null;
  offerEarlyMapElement(null);
  mapMade = true;
  if (early === null) {
    const element = mapElement();
    container.append(element);
    const core = createMapCore(element);
    addControls(core.map);
    return core;
  }
  container.append(early.element);
  // a resize redraws the whole map, a frame of 100-250 ms in software GL: only when the box changed
  const canvas = early.map.getCanvas();
  if (
    canvas.clientWidth !== early.element.clientWidth ||
    canvas.clientHeight !== early.element.clientHeight
  ) {
    early.map.resize();
  }
  addControls(early.map);
  return early;
}
