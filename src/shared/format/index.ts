/**
 * The display formats of social-and-accounts §9, one copy for the browser and the server's rendered
 * pages: distances in miles or feet, the 'DD MMM YYYY HH:mm (A)' date, file sizes in Kb or Mb, and the
 * city option's padding. Pure functions of their input (and of the time zone given), so a page
 * rendered on the server and hydrated in the browser says the same thing when given the same zone.
 */

/** Metres in a mile, and feet in a metre, as §9 gives them. */
const METRES_PER_MILE = 1609.34;
const FEET_PER_METRE = 3.28;
/** Above this many metres a distance is shown in miles. */
const MILES_FROM_METRES = 805;

/** §9: above 805 m in miles with one decimal ('1.2 mi'), otherwise in whole feet ('650 ft'). */
export function formatDistance(metres: number): string {
  if (!Number.isFinite(metres) || metres < 0) return '';
  return metres > MILES_FROM_METRES
    ? `${(metres / METRES_PER_MILE).toFixed(1)} mi`
    : `${Math.round(metres * FEET_PER_METRE)} ft`;
}

const dateParts = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = dateParts.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    dateParts.set(key, format);
  }
  return format;
}

/**
 * §9's date display 'DD MMM YYYY HH:mm (A)' of an instant (epoch ms): '07 Mar 2026 18:05 (PM)', in
 * `timeZone` (an IANA name; the runtime's own zone when absent). '' for a missing or invalid time.
 */
export function formatDate(ms: number | null | undefined, timeZone?: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const parts: Record<string, string> = {};
  for (const part of partsFormat(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  const hour = Number(parts.hour);
  // some runtimes write 'Sept' for en-GB; §9's MMM is three letters
  const month = (parts.month ?? '').slice(0, 3);
  return `${parts.day} ${month} ${parts.year} ${parts.hour}:${parts.minute} (${hour < 12 ? 'AM' : 'PM'})`;
}

const KB = 1024;
const MB = 1024 * 1024;

/** §9: below 1 MB in whole Kb ('340 Kb'), otherwise in Mb with one decimal ('2.4 Mb'). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  return bytes < MB
    ? `${Math.max(bytes > 0 ? 1 : 0, Math.round(bytes / KB))} Kb`
    : `${(bytes / MB).toFixed(1)} Mb`;
}

/** §9: a city option's text is padded to 30 characters. */
export const CITY_OPTION_WIDTH = 30;

/** A city option's label padded with spaces to CITY_OPTION_WIDTH (longer names are left whole). */
export function padCityOption(label: string): string {
  return label.padEnd(CITY_OPTION_WIDTH, ' ');
}
