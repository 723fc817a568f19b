import { useEffect, useRef } from 'react';
import { addMapClickHandler, onMapMoveEnd, onMapReady, visibleBounds } from '../map/mapHandle';
import { useMapNavigation } from '../map/useMapNavigation';
import type { LiveEngine } from './liveEngine';

/**
 * Live activity on the map (map-and-search §4): beams of hot points, events, chats, help requests
 * and incidents. Kept off the first page load's critical path: the engine (realtime client and
 * beam layers) is imported once the map has first gone idle. Renders nothing itself; the beams are
 * map layers.
 */
export function LiveActivity(): null {
  const { onPointClick } = useMapNavigation();
  const openRef = useRef(onPointClick);
  useEffect(() => {
    openRef.current = onPointClick;
  }, [onPointClick]);

  useEffect(() => {
    let engine: LiveEngine | null = null;
    let cancelled = false;
    const stopWaiting = onMapReady((map) => {
      import('./liveEngine')
        .then(({ LiveEngine }) => {
          if (cancelled) return;
          engine = new LiveEngine({
            map,
            open: (route) => openRef.current(route),
            claimClicks: addMapClickHandler,
            onMoveEnd: onMapMoveEnd,
            visibleBounds,
          });
          engine.start();
        })
        .catch((error: unknown) => console.warn('XPoint live: could not start live activity', error));
    });
    return () => {
      cancelled = true;
      stopWaiting();
      engine?.stop();
    };
  }, []);

  return null;
}
