import { parseLocation } from './data';
import type { MapLocation } from './types';

/**
 * The map position outside the path (map-and-search §2): "also kept in the address hash and in a
 * cookie 'mapbox_loc_json'". The spec does not give the hash's format; we use MapLibre's own
 * (`#zoom/lat/lng`, optionally followed by bearing and pitch, which we ignore), so the map's
 * built-in `hash` option and this codec read each other. The cookie holds the `loc` JSON.
 * Reading never throws; a bad value reads as null.
 */

export const MAP_LOCATION_COOKIE = 'mapbox_loc_json';
/** Cookie values are read before any work only up to this length (a loc is under 100 characters). */
const MAX_LOCATION_TEXT = 512;

/** `#zoom/lat/lng`, rounded as in §9. */
export function buildMapHash(loc: MapLocation): string {
  const rounded = parseLocation(loc);
  if (rounded === null) throw new Error(`Not a map location: ${JSON.stringify(loc)}`);
  return `#${rounded.zoom}/${rounded.lat}/${rounded.lng}`;
}

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Reads `#zoom/lat/lng[/bearing/pitch]`, or MapLibre's named form `#map=zoom/lat/lng&...`. */
export function parseMapHash(hash: string): MapLocation | null {
  if (typeof hash !== 'string' || hash.length > MAX_LOCATION_TEXT) return null;
  let text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.includes('=')) text = new URLSearchParams(text).get('map') ?? '';
  const parts = text.split('/');
  if (parts.length < 3 || parts.length > 5 || !parts.every((part) => NUMBER.test(part))) return null;
  const [zoom, lat, lng] = parts.map(Number);
  return parseLocation({ zoom, lat, lng });
}

/** The cookie value: URL-encoded `{"zoom":..,"lng":..,"lat":..}` (cookie values may not hold quotes). */
export function encodeLocationCookie(loc: MapLocation): string {
  const rounded = parseLocation(loc);
  if (rounded === null) throw new Error(`Not a map location: ${JSON.stringify(loc)}`);
  return encodeURIComponent(JSON.stringify(rounded));
}

/** Reads the cookie value, URL-encoded or not. */
export function decodeLocationCookie(value: string): MapLocation | null {
  if (typeof value !== 'string' || value.length > MAX_LOCATION_TEXT) return null;
  try {
    return parseLocation(JSON.parse(decodeURIComponent(value)));
  } catch {
    return null;
  }
}
