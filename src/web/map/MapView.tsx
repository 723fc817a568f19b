import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Map as MaplibreMap,
  NavigationControl,
  prewarm,
  type Marker,
  type Popup,
  setWorkerUrl,
  type StyleSpecification,
  type MapGeoJSONFeature,
  type MapMouseEvent,
} from 'maplibre-gl';
import {
  CLICK_HIT_BOX_PX,
  LAYER_GROUPS,
  MAX_ZOOM,
  MIN_ZOOM,
  TILE_PATHS,
  allPointLayerIds,
  isLayerGroup,
  pointLayerIds,
  type LayerGroup,
} from '../../shared/map/contract';
import { externalBasemapUrl, mergeOverlay } from '../../shared/map/overlay';
import { fetchClusterLeaves } from './clusterApi';
import { LayerToggles } from './LayerToggles';
import { MyLocationControl } from './myLocation';
import { attachResultClicks, bindResultMap, hitsResultMarker, installResultLayers } from './resultMarkers';
import { loadHiddenGroups, saveHiddenGroups } from './layerVisibility';
import { bindSelectedMap, installSelectedLayers } from './selectedPlace';
import { parseMapHash, type MapLocation } from '../../shared/address';
import {
  initialBounds,
  initialLocation,
  roundedLocation,
  sameLocation,
  writeLocationCookie,
  writeLocationHash,
} from './mapLocation';
// maplibre 6 finds its worker with `new URL(..., import.meta.url)`, which Vite does not emit: hand
// it the worker file Vite does emit (notes/offline-map.md).
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import './map.css';

setWorkerUrl(workerUrl);

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
type MoveSource = 'map' | 'app' | 'reveal';
const FROM_APP = { from: 'app' satisfies MoveSource };

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
 * The first screen is the map, so its slowest inputs start as soon as this module runs, not after
 * React's first render: the worker (prewarm) and the style JSON (fetched once here, handed to the
 * first map; later maps fetch their own). Measured by `npm run bench:map`.
 */
prewarm();
let earlyStyle: Promise<StyleSpecification | null> | null = fetchStyle();

function fetchStyle(): Promise<StyleSpecification | null> {
  return fetch(styleUrl(), { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<StyleSpecification>) : null))
    .catch(() => null);
}

/** The prefetched style, once; null when it failed (the map then asks for the URL and reports). */
function takeEarlyStyle(): Promise<StyleSpecification | null> {
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

/** Places closer than this (degrees, about a metre) are one spot: zooming never parts them. */
const ONE_SPOT_DEGREES = 1e-5;

/**
 * Whether every place of a small cluster sits at one spot (a building's shops, a market's stalls).
 * A failed or large answer says no: the click then zooms in, which is never wrong.
 */
async function clusterAtOneSpot(group: LayerGroup, clusterId: number): Promise<boolean> {
  try {
    const { total, leaves } = await fetchClusterLeaves(group, clusterId, 0);
    const first = leaves[0];
    if (first === undefined || total > leaves.length) return false;
    return leaves.every(
      (leaf) =>
        Math.abs(leaf.lat - first.lat) < ONE_SPOT_DEGREES &&
        Math.abs(leaf.lon - first.lon) < ONE_SPOT_DEGREES,
    );
  } catch {
    return false;
  }
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

export interface MapViewProps {
  className?: string;
  /** A single point was clicked: its detail route (`clickurl`). */
  onPointClick?(clickurl: string): void;
  /** A cluster was clicked. */
  onClusterClick?(cluster: ClusterClick): void;
}

/** The map's view, rounded as the address stores it. */
function currentLocation(map: MaplibreMap): MapLocation | null {
  const center = map.getCenter().wrap();
  return roundedLocation(map.getZoom(), center.lng, center.lat);
}

/** Point layers present in the style (an overlay on an external basemap may be mid-load). */
function presentPointLayers(map: MaplibreMap): string[] {
  return allPointLayerIds().filter((id) => map.getLayer(id) !== undefined);
}

/** Point and cluster features within the §9 hit box (±5 px) around a pointer position. */
function featuresNear(map: MaplibreMap, event: MapMouseEvent): MapGeoJSONFeature[] {
  const layers = presentPointLayers(map);
  if (layers.length === 0) return [];
  const { x, y } = event.point;
  return map.queryRenderedFeatures(
    [
      [x - CLICK_HIT_BOX_PX, y - CLICK_HIT_BOX_PX],
      [x + CLICK_HIT_BOX_PX, y + CLICK_HIT_BOX_PX],
    ],
    { layers },
  );
}

/**
 * Shows or hides each group's layers. Only real changes are written: any layout change makes
 * MapLibre reload the source's tiles, which would slow the first idle for nothing.
 */
function applyHiddenGroups(map: MaplibreMap, hidden: ReadonlySet<LayerGroup>): void {
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
 * The MapLibre map, created once per mount and held in a ref; React owns only the container and the
 * controls beside it. Points come from the style's vector-tile layers, never DOM markers.
 */
export function MapView({ className, onPointClick, onClusterClick }: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MaplibreMap | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<LayerGroup>>(loadHiddenGroups);
  const hiddenRef = useRef(hidden);
  // the latest callbacks, read by listeners registered once
  const callbacksRef = useRef({ onPointClick, onClusterClick });
  useEffect(() => {
    callbacksRef.current = { onPointClick, onClusterClick };
  }, [onPointClick, onClusterClick]);

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return;

    const sources = {
      hash: window.location.hash,
      pathname: window.location.pathname,
      cookies: document.cookie,
    };
    const start = initialLocation(sources);
    const bounds = initialBounds(sources);
    const map = new MaplibreMap({
      container,
      // a shared search link opens on its bounds; anything else on the location read above
      ...(bounds === null
        ? { center: [start.lng, start.lat] as [number, number], zoom: start.zoom }
        : { bounds }),
      minZoom: MIN_ZOOM,
      maxZoom: MAX_ZOOM,
      attributionControl: { compact: true },
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');
    // added after the zoom buttons, so it sits above them (bottom corners stack upwards)
    map.addControl(new MyLocationControl(), 'bottom-right');
    mapRef.current = map;
    mountedMap = map;

    // BASEMAP=https://... : our style is an overlay naming an external basemap style; load that
    // one and lay the overlay on top (src/shared/map/overlay.ts).
    map.once('style.load', () => {
      const overlay = map.getStyle();
      const basemapUrl = externalBasemapUrl(overlay);
      if (basemapUrl !== undefined) {
        map.setStyle(basemapUrl, { transformStyle: (_previous, base) => mergeOverlay(base, overlay) });
      }
    });
    // after every style load (ours, then an external basemap's): the visitor's hidden groups
    map.on('style.load', () => {
      applyHiddenGroups(map, hiddenRef.current);
      installResultLayers(map);
      installSelectedLayers(map);
    });
    attachResultClicks(map);
    bindResultMap(map);
    bindSelectedMap(map);

    map.on('moveend', (event) => {
      const loc = currentLocation(map);
      if (loc === null) return;
      const from = (event as { from?: MoveSource }).from;
      if (from !== 'app') writeLocationHash(loc);
      writeLocationCookie(loc);
      if (from === undefined || from === 'map') for (const listener of visitorMoveListeners) listener();
      for (const listener of moveEndListeners) listener();
    });

    // the hash changed from outside (typed in, back/forward): follow it
    const followHash = () => {
      const target = parseMapHash(window.location.hash);
      if (target === null || sameLocation(target, currentLocation(map))) return;
      map.jumpTo({ center: [target.lng, target.lat], zoom: target.zoom }, FROM_APP);
    };
    window.addEventListener('hashchange', followHash);
    window.addEventListener('popstate', followHash);

    map.on('click', (event) => {
      if (clickClaim !== null) {
        // a click in the claimant's own popup or on its marker is not a click on the map
        const target = event.originalEvent.target;
        if (target instanceof Element && target.closest('.maplibregl-popup, .maplibregl-marker')) return;
        const at = event.lngLat.wrap();
        clickClaim({ lng: at.lng, lat: at.lat });
        return;
      }
      if (hitsResultMarker(map, event.point)) return;
      const feature = featuresNear(map, event)[0];
      const hit = feature?.properties as Record<string, unknown> | undefined;
      const underneath = hit === undefined ? null : typeof hit.appnetid === 'string' ? hit.appnetid : '';
      for (const handler of clickHandlers) if (handler(event.point, underneath)) return;
      if (feature === undefined) return;
      const properties = feature.properties as Record<string, unknown>;
      const group = feature.sourceLayer;
      const clusterId = properties.cluster_id;
      if (
        properties.point_count !== undefined &&
        typeof clusterId === 'number' &&
        isLayerGroup(group ?? '')
      ) {
        // Google's behaviour (issue 21, item 10): a cluster that splits apart within the map's zooms
        // is zoomed in to; only one that never splits (at max zoom, or points at one spot) is listed
        const expansion = Number(properties.expansion_zoom);
        const zoom = map.getZoom();
        const list = () => {
          const loc = currentLocation(map);
          if (loc !== null)
            callbacksRef.current.onClusterClick?.({ group: group as LayerGroup, clusterId, loc });
        };
        if (!Number.isFinite(expansion) || expansion > MAX_ZOOM || expansion <= zoom + 0.01) return list();
        const [lng, lat] =
          feature.geometry.type === 'Point'
            ? (feature.geometry.coordinates as [number, number])
            : [event.lngLat.lng, event.lngLat.lat];
        const zoomIn = () =>
          map.easeTo({ center: [lng, lat], zoom: Math.min(MAX_ZOOM, Math.max(expansion, zoom + 1)) });
        // places at one spot never come apart, however far one zooms: those are listed at once
        void clusterAtOneSpot(group as LayerGroup, clusterId).then((oneSpot) =>
          oneSpot ? list() : zoomIn(),
        );
        return;
      }
      if (typeof properties.clickurl === 'string' && properties.clickurl.startsWith('/')) {
        callbacksRef.current.onPointClick?.(properties.clickurl);
      }
    });

    // a pointer over a point or cluster says it can be clicked
    let hovering = false;
    map.on('mousemove', (event) => {
      const over = featuresNear(map, event).length > 0;
      if (over === hovering || clickClaim !== null) return;
      hovering = over;
      map.getCanvas().style.cursor = over ? 'pointer' : '';
    });

    let removed = false;
    void takeEarlyStyle().then((style) => {
      if (!removed) map.setStyle(style ?? styleUrl());
    });

    map.once('idle', () => {
      window.__xpointMap = map;
      document.body.dataset.mapReady = 'true';
      readyMap = map;
      for (const listener of [...readyListeners]) {
        readyListeners.delete(listener);
        listener(map);
      }
    });

    return () => {
      removed = true;
      window.removeEventListener('hashchange', followHash);
      window.removeEventListener('popstate', followHash);
      if (window.__xpointMap === map) {
        delete window.__xpointMap;
        delete document.body.dataset.mapReady;
      }
      if (mountedMap === map) mountedMap = null;
      if (readyMap === map) readyMap = null;
      bindResultMap(null);
      bindSelectedMap(null);
      mapRef.current = null;
      map.remove();
    };
  }, []);

  const toggleGroup = useCallback((group: LayerGroup, visible: boolean) => {
    setHidden((previous) => {
      const next = new Set(previous);
      if (visible) next.delete(group);
      else next.add(group);
      return next;
    });
  }, []);

  useEffect(() => {
    hiddenRef.current = hidden;
    saveHiddenGroups(hidden);
    const map = mapRef.current;
    if (map !== null) applyHiddenGroups(map, hidden);
  }, [hidden]);

  return (
    <>
      <div ref={containerRef} className={className ?? 'map-view'} role="region" aria-label="Map" />
      <LayerToggles hidden={hidden} onToggle={toggleGroup} />
    </>
  );
}
