import { useEffect, useRef } from 'react';
import { Map as MaplibreMap, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import { TILE_PATHS } from '../../shared/map/contract';
import { externalBasemapUrl, mergeOverlay } from '../../shared/map/overlay';
// maplibre 6 finds its worker with `new URL(..., import.meta.url)`, which Vite does not emit: hand
// it the worker file Vite does emit (notes/offline-map.md).
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';

setWorkerUrl(workerUrl);

declare global {
  interface Window {
    /** The live map, for browser tests and debugging; set once the map is first idle. */
    __xpointMap?: MaplibreMap;
  }
}

/** The spec's default view: a New York coordinate at zoom 14. */
export const DEFAULT_CENTER: [lng: number, lat: number] = [-74.006, 40.7128];
export const DEFAULT_ZOOM = 14;

/**
 * The server's style (basemap, glyphs, sprite, point layers), addressed absolutely so MapLibre's
 * workers resolve it the same way as the page.
 */
export function styleUrl(origin: string = window.location.origin): string {
  return new URL(TILE_PATHS.style, origin).toString();
}

export interface MapViewProps {
  className?: string;
}

/**
 * The MapLibre map, created once per mount and removed on unmount. The map is imperative: React
 * owns only the container element.
 */
export function MapView({ className }: MapViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MaplibreMap | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return;

    const map = new MaplibreMap({
      container,
      style: styleUrl(),
      center: DEFAULT_CENTER,
      zoom: DEFAULT_ZOOM,
      attributionControl: { compact: true },
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');
    mapRef.current = map;

    // BASEMAP=https://... : our style is an overlay naming an external basemap style; load that
    // one and lay the overlay on top (src/shared/map/overlay.ts).
    map.once('style.load', () => {
      const overlay = map.getStyle();
      const basemapUrl = externalBasemapUrl(overlay);
      if (basemapUrl !== undefined) {
        map.setStyle(basemapUrl, { transformStyle: (_previous, base) => mergeOverlay(base, overlay) });
      }
    });

    map.once('idle', () => {
      window.__xpointMap = map;
      document.body.dataset.mapReady = 'true';
    });

    return () => {
      if (window.__xpointMap === map) {
        delete window.__xpointMap;
        delete document.body.dataset.mapReady;
      }
      mapRef.current = null;
      map.remove();
    };
  }, []);

  return <div ref={containerRef} className={className ?? 'map-view'} role="region" aria-label="Map" />;
}
