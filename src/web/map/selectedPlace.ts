import type { GeoJSONSource, Map as MaplibreMap } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';

/**
 * The opened place, marked on the map as Google marks it (issue 21, item 10): a red dot with a
 * halo (the point layer beneath already writes its name), drawn above every other layer, so a live event marker at the same spot
 * never hides it. One GeoJSON source; moved to the top each time it is set (live beam layers are
 * added after the style loads).
 */
export const SELECTED_SOURCE = 'selected-place';
export const SELECTED_LAYERS = {
  halo: 'selected-place-halo',
  dot: 'selected-place-dot',
} as const;

export interface SelectedPlace {
  lng: number;
  lat: number;
  title: string;
}

let selected: SelectedPlace | null = null;
let currentMap: MaplibreMap | null = null;

function collection(): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features:
      selected === null
        ? []
        : [
            {
              type: 'Feature',
              geometry: { type: 'Point', coordinates: [selected.lng, selected.lat] },
              properties: { title: selected.title },
            },
          ],
  };
}

/** Adds the source and layers when missing (a style load drops them), then lifts them to the top. */
export function installSelectedLayers(map: MaplibreMap): void {
  const source = map.getSource(SELECTED_SOURCE) as GeoJSONSource | undefined;
  if (source !== undefined) source.setData(collection());
  else {
    map.addSource(SELECTED_SOURCE, { type: 'geojson', data: collection() });
    map.addLayer({
      id: SELECTED_LAYERS.halo,
      type: 'circle',
      source: SELECTED_SOURCE,
      paint: { 'circle-radius': 20, 'circle-color': '#d1242f', 'circle-opacity': 0.22 },
    });
    map.addLayer({
      id: SELECTED_LAYERS.dot,
      type: 'circle',
      source: SELECTED_SOURCE,
      paint: {
        'circle-radius': 9,
        'circle-color': '#d1242f',
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 3,
      },
    });
  }
  keepOnTop(map);
}

/** Lifts the layers to the top when another layer went above them (live beams are added later). */
function keepOnTop(map: MaplibreMap): void {
  const ids = Object.values(SELECTED_LAYERS) as string[];
  const layers = map.getStyle().layers;
  const last = layers.slice(-ids.length).map((layer) => layer.id);
  if (ids.some((id) => map.getLayer(id) === undefined)) return;
  if (last.every((id, index) => id === ids[index])) return;
  for (const id of ids) map.moveLayer(id);
}

export function bindSelectedMap(map: MaplibreMap | null): void {
  currentMap = map;
  map?.on('styledata', () => {
    if (selected !== null && currentMap === map) keepOnTop(map);
  });
}

/** Marks this place as the opened one (null clears the mark). */
export function showSelectedPlace(place: SelectedPlace | null): void {
  selected = place;
  const map = currentMap;
  if (map === null) return;
  try {
    installSelectedLayers(map);
  } catch {
    // a style still being parsed refuses a source: its style.load listener (MapView) installs them
    map.once('idle', () => installSelectedLayers(map));
  }
}
