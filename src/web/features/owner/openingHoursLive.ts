import { evaluateOpeningHours } from '../../../shared/details/opening-hours';
import { checkOpeningHours } from '../../../shared/validation/openingHours';
import type { OpeningHoursWarning } from '../../../shared/validation/points';

/**
 * The live check of the opening-hours field (issue 8; map-and-search §3, §5, §9): as the owner
 * types, the `opening_hours` library reads the value the way the server will (its parse error is
 * the field's error, its warnings go beside the field) and previews whether the place would be open
 * now in its own time zone — the same evaluation the point panel shows after saving.
 */

export type LiveHours =
  /** nothing typed: the point will have no opening hours. */
  | { kind: 'empty' }
  /** the library cannot read it; saving would be refused with the same message (7012). */
  | { kind: 'error'; error: string }
  | {
      kind: 'ok';
      warnings: OpeningHoursWarning[];
      /** the tidy form the server stores ('mo-fr 8-18' -> 'Mo-Fr 08:00-18:00'); null when it is as typed. */
      prettified: string | null;
      state: 'open' | 'closed' | 'unknown';
      /** the next change as wall-clock time in the point's zone, 'YYYY-MM-DDTHH:mm', or null. */
      nextChange: string | null;
      /** the matching rule's comment ("by appointment"), if any. */
      comment: string | null;
      /** the zone the preview is in. */
      timeZone: string;
    };

export interface LivePlace {
  lat: number;
  lon: number;
  /** the point's IANA time zone from the edit data; UTC when unknown. */
  timeZone: string | null;
  /** ISO alpha-2 when known, so PH rules are checked against the country's holidays. */
  countryCode?: string | null;
}

/** The check of `value` at `now` for a point at `place`. */
export function liveOpeningHours(value: string, place: LivePlace, now: number): LiveHours {
  const text = value.trim();
  if (text === '') return { kind: 'empty' };
  const check = checkOpeningHours(text, {
    lat: place.lat,
    lon: place.lon,
    countryCode: place.countryCode ?? null,
  });
  if (!check.ok) return { kind: 'error', error: check.error };
  // the preview evaluates what will be stored: the library's tidy form
  const open = evaluateOpeningHours(check.prettified, place.timeZone, now, {
    countryCode: place.countryCode ?? null,
    lat: place.lat,
    lon: place.lon,
  });
  return {
    kind: 'ok',
    warnings: check.warnings,
    prettified: check.prettified === text ? null : check.prettified,
    state: open.state,
    nextChange: open.next_change,
    comment: open.comment,
    timeZone: open.time_zone_name,
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'YYYY-MM-DDTHH:mm' (wall clock in the point's zone) as 'Tue 14:00'. */
export function nextChangeText(wallClock: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})$/.exec(wallClock);
  if (!match) return wallClock;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))).getUTCDay();
  return `${WEEKDAYS[day] ?? ''} ${match[4] ?? ''}`.trim();
}

/** The preview's sentence: 'Open now · closes Tue 18:00 (Europe/Paris time)'. */
export function previewText(live: Extract<LiveHours, { kind: 'ok' }>): string {
  const head =
    live.state === 'open' ? 'Open now' : live.state === 'closed' ? 'Closed now' : 'Open state unknown';
  const comment = live.comment ? ` (${live.comment})` : '';
  const next =
    live.nextChange && live.state !== 'unknown'
      ? ` · ${live.state === 'open' ? 'closes' : 'opens'} ${nextChangeText(live.nextChange)}`
      : '';
  return `${head}${comment}${next} · ${live.timeZone.replaceAll('_', ' ')} time`;
}
