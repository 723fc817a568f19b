import type { GeoJSONSource, Map as MaplibreMap, MapLayerMouseEvent } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import { FONT_STACKS } from '../../shared/map/contract';

/**
 * Search result markers (map-and-search §2, §4): the current page's results drawn by MapLibre from
 * one GeoJSON source above the point layers, numbered like the list so eye and hand find the same
 * place. Selecting one opens the result as the next level. The markers survive a style reload.
 */
export interface ResultMarker {
  id: string;
  lng: number;
  lat: number;
  title: string;
  /** 1-based position on the page. */
  rank: number;
}

export const RESULT_SOURCE = 'search-results';
export const RESULT_LAYERS = {
  dot: 'search-results-dot',
  rank: 'search-results-rank',
  label: 'search-results-label',
};

let markers: ResultMarker[] = [];
let onSelect: ((id: string) => void) | null = null;

function collection(): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: markers.map((marker) => ({
      type: 'Feature',
      id: marker.rank,
      geometry: { type: 'Point', coordinates: [marker.lng, marker.lat] },
      properties: { id: marker.id, title: marker.title, rank: String(marker.rank) },
    })),
  };
}

/** Adds the source and layers to the map's current style when they are missing, with the markers. */
export function installResultLayers(map: MaplibreMap): void {
  const source = map.getSource(RESULT_SOURCE) as GeoJSONSource | undefined;
  if (source !== undefined) {
    source.setData(collection());
    return;
  }
  map.addSource(RESULT_SOURCE, { type: 'geojson', data: collection() });
  map.addLayer({
    id: RESULT_LAYERS.dot,
    type: 'circle',
    source: RESULT_SOURCE,
    paint: {
      'circle-radius': 11,
      'circle-color': '#d1242f',
      'circle-stroke-color': '#ffffff',
      'circle-stroke-width': 2,
    },
  });
  map.addLayer({
    id: RESULT_LAYERS.rank,
    type: 'symbol',
    source: RESULT_SOURCE,
    layout: {
      'text-field': ['get', 'rank'],
      'text-font': [FONT_STACKS.bold],
      'text-size': 11,
      'text-allow-overlap': true,
      'text-ignore-placement': true,
    },
    paint: { 'text-color': '#ffffff' },
  });
  map.addLayer({
    id: RESULT_LAYERS.label,
    type: 'symbol',
    source: RESULT_SOURCE,
    minzoom: 11,
    layout: {
      'text-field': ['get', 'title'],
      'text-font': [FONT_STACKS.medium],
      'text-size': 12,
      'text-offset': [0, 1.4],
      'text-anchor': 'top',
      'text-max-width': 10,
      'text-optional': true,
    },
    paint: { 'text-color': '#82071e', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
  });
}

/** The listeners a map needs once: a click on a marker selects its result. */
export function attachResultClicks(map: MaplibreMap): void {
  map.on('click', RESULT_LAYERS.dot, (event: MapLayerMouseEvent) => {
    const id = event.features?.[0]?.properties?.id;
    if (typeof id === 'string') onSelect?.(id);
  });
}

/** True when a click at this event hit a result marker (the point layers then leave it alone). */
export function hitsResultMarker(map: MaplibreMap, point: { x: number; y: number }): boolean {
  if (map.getLayer(RESULT_LAYERS.dot) === undefined || markers.length === 0) return false;
  return map.queryRenderedFeatures([point.x, point.y], { layers: [RESULT_LAYERS.dot] }).length > 0;
}

let currentMap: MaplibreMap | null = null;

export function bindResultMap(map: MaplibreMap | null): void {
  currentMap = map;
}

/** Shows these results (none clears them); `select` is called with a result's id when one is clicked. */
export function showResultMarkers(next: ResultMarker[], select: ((id: string) => void) | null): void {
  markers = next;
  onSelect = select;
  const map = currentMap;
  if (map === null) return;
  const source = map.getSource(RESULT_SOURCE) as GeoJSONSource | undefined;
  if (source !== undefined) source.setData(collection());
  else {
    // isStyleLoaded() is also false while tiles are on their way; only a style still being parsed
    // refuses a source, and its style.load listener (MapView) then installs the layers
    try {
      installResultLayers(map);
    } catch {
      map.once('idle', () => installResultLayers(map));
    }
  }
}
