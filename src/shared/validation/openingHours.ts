import OpeningHours from 'opening_hours';
import type { OpeningHoursPlace, OpeningHoursWarning } from './points';

/**
 * The check of an opening_hours value with the `opening_hours` library (spec §3, §5, §9), on its own
 * so that only the server and the owner's forms load the library (and its holiday tables); the rest
 * of the point rules are in ./points.
 */

export type OpeningHoursCheck =
  | {
      ok: true;
      warnings: OpeningHoursWarning[];
      /** the library's tidy form of the value ('mon-fri 8-18' -> 'Mo-Fr 08:00-18:00'). */
      prettified: string;
    }
  | { ok: false; error: string };

/**
 * Checks an OpenStreetMap opening_hours value with the `opening_hours` library (spec §3, §5: 24-hour
 * notation, minutes up to 59, week numbers 1-53 and the rest; wrong words are corrected with a
 * warning). A value the library cannot parse is an error; one it parses with corrections comes back
 * with its warnings. Rules that need a place (public holidays, sunrise) are evaluated once here, so a
 * value that would fail later when the page asks "open now?" fails now instead.
 */
export function checkOpeningHours(value: string, place?: OpeningHoursPlace): OpeningHoursCheck {
  let hours: OpeningHours;
  try {
    // the library's default warning severity is the spec's (§9: 4), so no options are passed
    hours = new OpeningHours(value, null);
    hours.getState(new Date());
  } catch (error) {
    return { ok: false, error: openingHoursError(error) };
  }
  const warnings: OpeningHoursWarning[] = hours
    .getStructuredWarnings()
    .map((w) => ({ type: String(w.type), message: w.message, position: w.position ?? null }));
  if (place?.countryCode) {
    // public holidays and sunrise depend on the place: a country without holiday data is a warning,
    // not an error (the value is valid; PH rules are just not applied there)
    try {
      const nominatim = {
        lat: place.lat,
        lon: place.lon,
        address: { country_code: place.countryCode.toLowerCase(), state: place.state ?? '' },
      };
      new OpeningHours(value, nominatim).getState(new Date());
    } catch (error) {
      warnings.push({ type: 'evaluation', message: openingHoursError(error), position: null });
    }
  }
  return { ok: true, warnings, prettified: hours.prettifyValue() };
}

/**
 * The library throws strings like 'Mo 25:00 <--- (Minutes are greater than 59.)', and evaluation
 * errors with a plea to its maintainers; keep the part a person can act on.
 */
function openingHoursError(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error))
    .replace(
      /An error occurred during evaluation of the value "[^"]*"\. Please submit a pull request: \S+ ?/g,
      '',
    )
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text || 'could not be read.';
}
