import {
  MAP_LOCATION_COOKIE,
  decodeLocationCookie,
  parseAddress,
  parseMapHash,
  type MapLocation,
} from '../address';
import { DEFAULT_CENTER, DEFAULT_ZOOM } from './contract';

/**
 * Where a map opens (map-and-search §2), read the same way by the app's map and by the server, which
 * paints a search page ranked around the centre the app's map will open on (issue 23): the address
 * hash (the app's alone: a browser never sends it), the `data=` segment's `loc`, the
 * `mapbox_loc_json` cookie, else New York at 14.
 */

export const DEFAULT_LOCATION: MapLocation = {
  zoom: DEFAULT_ZOOM,
  lng: DEFAULT_CENTER.lng,
  lat: DEFAULT_CENTER.lat,
};

/** The value of one cookie in a `document.cookie` string, or undefined. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface LocationSources {
  hash: string;
  pathname: string;
  cookies: string;
}

/**
 * The first view (§2): the hash, else the data segment's loc (also of a location-only link the app
 * is about to replace), else the cookie, else New York at 14.
 */
export function initialLocation({ hash, pathname, cookies }: LocationSources): MapLocation {
  const fromHash = parseMapHash(hash);
  if (fromHash) return fromHash;
  const { route, replaceWith } = parseAddress(pathname);
  const fromData = 'data' in route ? route.data.loc : undefined;
  if (fromData) return fromData;
  // a location-only link is about to be replaced by the map with the location in its hash
  const hashAhead = replaceWith?.indexOf('#') ?? -1;
  const fromReplacement = hashAhead < 0 ? null : parseMapHash(replaceWith!.slice(hashAhead));
  if (fromReplacement) return fromReplacement;
  const cookie = readCookie(cookies, MAP_LOCATION_COOKIE);
  const fromCookie = cookie === undefined ? null : decodeLocationCookie(cookie);
  return fromCookie ?? DEFAULT_LOCATION;
}
