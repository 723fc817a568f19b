import { createRequire } from 'node:module';
import type { Store } from '../../store/store';
import { closestCities, foldName } from '../cities/queries';

const require = createRequire(import.meta.url);
const tzlookup = require('@photostructure/tz-lookup') as (lat: number, lon: number) => string;

/** A typed city is matched to a known one this far away at most; the nearest one only this far. */
const CITY_NAME_MATCH_M = 100_000;
const CITY_NEAREST_M = 50_000;

/** Where a point or event is: the known city (nearest, or the one named like the typed city) and its time zone. */
export interface Place {
  city_id: number | null;
  iso2: string | null;
  state: string | null;
  time_zone_name: string | null;
}

export async function placeOf(
  store: Store,
  lat: number,
  lon: number,
  typedCity: string | null,
): Promise<Place> {
  const cities = await closestCities(store.db, lat, lon, 5);
  const typed = typedCity ? foldName(typedCity) : '';
  const named = typed
    ? cities.find((c) => foldName(c.city) === typed && c.distance_m <= CITY_NAME_MATCH_M)
    : undefined;
  const nearest = cities[0] && cities[0].distance_m <= CITY_NEAREST_M ? cities[0] : undefined;
  const city = named ?? nearest;
  let timeZone: string | null = null;
  try {
    timeZone = tzlookup(lat, lon);
  } catch {
    // coordinates the lookup cannot place: no zone, opening hours are then read in the viewer's
  }
  return {
    city_id: city?.id ?? null,
    iso2: city?.iso2 ?? null,
    state: city?.state ?? null,
    time_zone_name: timeZone,
  };
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** 'lat,lon' with six decimals: the spec's full_address when a point has no street address (§3, §9). */
export function coordinatesText(lat: number, lon: number): string {
  return `${round6(lat)},${round6(lon)}`;
}

export interface AddressParts {
  street: string | null;
  city: string | null;
  region: string | null;
  postalcode: string | null;
  country: string | null;
}

/** 'street, postalcode city, region, country' from what is there, or null when nothing is. */
export function composeAddress(parts: AddressParts): string | null {
  const locality = [parts.postalcode, parts.city].filter(Boolean).join(' ');
  const line = [parts.street, locality, parts.region, parts.country].filter(Boolean).join(', ');
  return line || null;
}
