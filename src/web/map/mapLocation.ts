import {
  MAP_LOCATION_COOKIE,
  buildMapHash,
  encodeLocationCookie,
  parseAddress,
  parseLocation,
  parseMapHash,
  type MapLocation,
} from '../../shared/address';
import type { LocationSources } from '../../shared/map/startView';

/**
 * Where the map position lives outside the map (map-and-search §2): the address hash, the `data=`
 * segment's `loc`, and the `mapbox_loc_json` cookie. Pure readers plus the two writers the map
 * calls on `moveend`; all values rounded as §9 says (6 decimals, zoom 2) by the address codec. Where
 * the map opens is shared with the server (shared/map/startView.ts).
 */

/** The cookie lives a year, for every path of the site. */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** West-south and east-north corners, as MapLibre's `bounds` takes them. */
export type InitialBounds = [[number, number], [number, number]];

/**
 * The first view when the address holds a search's bounds and nothing says where the map is (no hash,
 * no `loc`): those bounds, so a shared search link opens on the part of the map it lists (§2: the
 * address is the state). Null otherwise, and for bounds with no area.
 */
export function initialBounds({ hash, pathname }: Omit<LocationSources, 'cookies'>): InitialBounds | null {
  if (parseMapHash(hash)) return null;
  const route = parseAddress(pathname).route;
  if (!('data' in route) || route.data.loc) return null;
  const { southwest, northeast } = route.data.search ?? {};
  if (!southwest || !northeast) return null;
  if (northeast.lat <= southwest.lat || northeast.lon <= southwest.lon) return null;
  return [
    [southwest.lon, southwest.lat],
    [northeast.lon, northeast.lat],
  ];
}

/** A map view as the codec rounds it, or null when MapLibre reports something out of range. */
export function roundedLocation(zoom: number, lng: number, lat: number): MapLocation | null {
  return parseLocation({ zoom, lng, lat });
}

export function sameLocation(a: MapLocation | null, b: MapLocation | null): boolean {
  return a !== null && b !== null && a.zoom === b.zoom && a.lng === b.lng && a.lat === b.lat;
}

/**
 * Writes the hash in place (replaceState: a map move is never a history entry) and keeps the
 * router's `history.state` (its key and index) untouched.
 */
export function writeLocationHash(loc: MapLocation): void {
  const hash = buildMapHash(loc);
  if (window.location.hash === hash) return;
  const url = `${window.location.pathname}${window.location.search}${hash}`;
  window.history.replaceState(window.history.state, '', url);
}

export function writeLocationCookie(loc: MapLocation): void {
  document.cookie = `${MAP_LOCATION_COOKIE}=${encodeLocationCookie(loc)}; path=/; max-age=${COOKIE_MAX_AGE_S}; SameSite=Lax`;
}
