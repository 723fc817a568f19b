/**
 * How a match ranks: the ranking tiers, the match kinds, the static level, and the distance from the
 * centre of the bounds, packed into one number (smaller is better) so that top-k compares numbers.
 */

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** Ranking tiers, best first. */
export const TIER_EXACT_TITLE = 0;
export const TIER_TITLE_PREFIX = 1;
export const TIER_OTHER = 2;

/** A ranking key: smaller is better. Tier, then static level, then title words, then distance. */
export function rankKey(tier: number, level: number, titleWords: boolean, distance: number): number {
  return ((tier * 64 + (63 - level)) * 2 + (titleWords ? 0 : 1)) * 1024 + Math.min(distance, 1023);
}

/** Where the ranking measures distance from (the centre of the bounds); null ranks every place alike. */
export interface Centre {
  lat: number;
  lon: number;
  cosLat: number;
}

export function centreOf(bounds: Bounds | null): Centre | null {
  if (!bounds) return null;
  const lat = (bounds.south + bounds.north) / 2;
  let width = bounds.east - bounds.west;
  if (width < 0) width += 360; // across the antimeridian
  let lon = bounds.west + width / 2;
  if (lon > 180) lon -= 360;
  return { lat, lon, cosLat: Math.cos((lat * Math.PI) / 180) };
}

/** A centre at one point: where a search without bounds measures distance from. */
export function centreAt(point: { lat: number; lon: number } | null | undefined): Centre | null {
  if (!point) return null;
  return { lat: point.lat, lon: point.lon, cosLat: Math.cos((point.lat * Math.PI) / 180) };
}

/** Approximate distance in degrees of latitude (equirectangular): enough to order places. */
export function distanceFrom(centre: Centre | null, lat: number, lon: number): number {
  if (!centre) return 0;
  let dx = Math.abs(lon - centre.lon);
  if (dx > 180) dx = 360 - dx;
  const dy = lat - centre.lat;
  dx *= centre.cosLat;
  return Math.sqrt(dx * dx + dy * dy);
}

export function inBounds(bounds: Bounds | null, lat: number, lon: number): boolean {
  if (!bounds) return true;
  if (lat < bounds.south || lat > bounds.north) return false;
  return bounds.west <= bounds.east
    ? lon >= bounds.west && lon <= bounds.east
    : lon >= bounds.west || lon <= bounds.east;
}

/** What matchAll answers: no match, every word in the title, or some word elsewhere. */
export const MATCH_NONE = 0;
export const MATCH_TITLE = 1;
export const MATCH_OTHER = 2;
