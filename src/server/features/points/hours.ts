import { AppError } from '../../../shared/errors';
import { checkOpeningHours } from '../../../shared/validation/openingHours';
import type { OpeningHoursWarning } from '../../../shared/validation/points';
import type { Place } from './place';

/** Holidays in opening_hours (PH, SH) are the place's: its country and state. */
type HoursPlace = Pick<Place, 'iso2' | 'state'>;

/**
 * Checks an opening_hours value (spec §5) at the point's place: the prettified value and the
 * library's warnings, or throws invalidOpeningHours.
 */
export function checkedOpeningHours(value: string, lat: number, lon: number, place: HoursPlace) {
  const check = checkOpeningHours(value, { lat, lon, countryCode: place.iso2, state: place.state });
  if (!check.ok) throw new AppError('invalidOpeningHours', { reason: check.error });
  return check;
}

/** The warnings about a stored value, read again at the point's (maybe new) place; none for no value. */
export function openingHoursWarnings(
  value: string | null,
  lat: number,
  lon: number,
  place: HoursPlace,
): OpeningHoursWarning[] {
  if (!value) return [];
  const check = checkOpeningHours(value, { lat, lon, countryCode: place.iso2, state: place.state });
  return check.ok ? check.warnings : [];
}
