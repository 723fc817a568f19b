import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Map as MaplibreMap, MapGeoJSONFeature, MapMouseEvent } from 'maplibre-gl';
import {
  CLICK_HIT_BOX_PX,
  MAX_ZOOM,
  allPointLayerIds,
  isLayerGroup,
  type LayerGroup,
} from '../../shared/map/contract';
import { parseMapHash, type MapLocation } from '../../shared/address';
import { fetchClusterLeaves } from './clusterApi';
import { LayerToggles } from './LayerToggles';
import { loadHiddenGroups, saveHiddenGroups } from './layerVisibility';
import { applyHiddenGroups, mapIn, type MapCore } from './mapCore';
import { FROM_APP, mapViewLink, type ClusterClick, type MoveSource } from './mapHandle';
import { roundedLocation, sameLocation, writeLocationCookie, writeLocationHash } from './mapLocation';
import { bindResultMap, hitsResultMarker } from './resultMarkers';
import { bindSelectedMap } from './selectedPlace';
// maplibre's own rules (controls, attribution): here, not in mapCore.ts, so the early start loads no
// stylesheet; its map is hidden until this box takes it over
import 'maplibre-gl/dist/maplibre-gl.css';

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
 * The MapLibre map, taken over from the early start or created once per mount, and held in a ref;
 * React owns only the box and the controls beside it. Points come from the style's vector-tile
 * layers, never DOM markers.
 */
export function MapView({ className, onPointClick, onClusterClick }: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const coreRef = useRef<MapCore | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<LayerGroup>>(loadHiddenGroups);
  // the latest callbacks, read by listeners registered once
  const callbacksRef = useRef({ onPointClick, onClusterClick });
  useEffect(() => {
    callbacksRef.current = { onPointClick, onClusterClick };
  }, [onPointClick, onClusterClick]);

  // a layout effect: the early map moves from the placeholder React just removed into this box before
  // the browser paints, so it never leaves the screen
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (container === null) return;

    const core = mapIn(container);
    const { map } = core;
    coreRef.current = core;
    mapViewLink.mounted(map);

    bindResultMap(map);
    bindSelectedMap(map);

    map.on('moveend', (event) => {
      const loc = currentLocation(map);
      if (loc === null) return;
      const from = (event as { from?: MoveSource }).from;
      if (from !== 'app') writeLocationHash(loc);
      writeLocationCookie(loc);
      if (from === undefined || from === 'map') mapViewLink.movedByVisitor();
      mapViewLink.moveEnded();
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
      const claim = mapViewLink.clickClaim();
      if (claim !== null) {
        // a click in the claimant's own popup or on its marker is not a click on the map
        const target = event.originalEvent.target;
        if (target instanceof Element && target.closest('.maplibregl-popup, .maplibregl-marker')) return;
        const at = event.lngLat.wrap();
        claim({ lng: at.lng, lat: at.lat });
        return;
      }
      if (hitsResultMarker(map, event.point)) return;
      const feature = featuresNear(map, event)[0];
      const hit = feature?.properties as Record<string, unknown> | undefined;
      const underneath = hit === undefined ? null : typeof hit.appnetid === 'string' ? hit.appnetid : '';
      for (const handler of mapViewLink.clickHandlers()) if (handler(event.point, underneath)) return;
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
      if (over === hovering || mapViewLink.clickClaim() !== null) return;
      hovering = over;
      map.getCanvas().style.cursor = over ? 'pointer' : '';
    });

    // the early map may have been idle before it was taken over
    const onFirstIdle = () => {
      window.__xpointMap = map;
      document.body.dataset.mapReady = 'true';
      mapViewLink.ready(map);
    };
    if (core.idle) onFirstIdle();
    else map.once('idle', onFirstIdle);

    return () => {
      core.removed = true;
      window.removeEventListener('hashchange', followHash);
      window.removeEventListener('popstate', followHash);
      if (window.__xpointMap === map) {
        delete window.__xpointMap;
        delete document.body.dataset.mapReady;
      }
      mapViewLink.unmounted(map);
      bindResultMap(null);
      bindSelectedMap(null);
      coreRef.current = null;
      map.remove();
      core.element.remove();
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
    saveHiddenGroups(hidden);
    const core = coreRef.current;
    if (core === null) return;
    core.hidden = hidden;
    applyHiddenGroups(core.map, hidden);
  }, [hidden]);

  return (
    <>
      <div ref={containerRef} className={className ?? 'map-view'} role="region" aria-label="Map" />
      <LayerToggles hidden={hidden} onToggle={toggleGroup} />
    </>
  );
}
