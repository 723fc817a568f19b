import type { MapLocation } from '../../../shared/address';
import { buildMapHash } from '../../../shared/address';
import { CITY_ZOOM, isUsableCityOption } from '../../../shared/api/home';
import { writeLocationCookie } from '../../map/mapLocation';

/**
 * Where the home page's location comes from (social §9: "not done when the user's location source is
 * 1 or 2"): 0 the map (its saved place), 1 the device's position, 2 a position the device gave before
 * (kept in this tab). Choosing a city moves the map only when the location is the map's own.
 */
export type LocationSource = 0 | 1 | 2;

export interface PickedCity {
  id: number;
  city: string;
  city_forurl: string;
  lat: number;
  lon: number;
}

/** The map's view of a chosen city: its centre at §9's default zoom 9.7. */
export function cityLocation(city: Pick<PickedCity, 'lat' | 'lon'>): MapLocation {
  return { lng: city.lon, lat: city.lat, zoom: CITY_ZOOM };
}

/** Whether choosing a city moves the map: a usable option (§5) and a location that is not the device's. */
export function shouldMoveMap(city: Pick<PickedCity, 'city_forurl'>, source: LocationSource): boolean {
  return isUsableCityOption(city) && source === 0;
}

/**
 * Moves the one map of the page to the city: the `mapbox_loc_json` cookie (lng, lat, zoom) at once,
 * then the address hash the map follows (replaced, never a history entry), as the map's own
 * hashchange listener reads it.
 */
export function moveMapTo(city: Pick<PickedCity, 'lat' | 'lon'>): void {
  const location = cityLocation(city);
  writeLocationCookie(location);
  const url = `${window.location.pathname}${window.location.search}${buildMapHash(location)}`;
  window.history.replaceState(window.history.state, '', url);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}
