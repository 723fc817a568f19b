/**
 * Open-now evaluation (map-and-search §3, §5, §8, §9) with the `opening_hours` library, in the point's
 * own time zone, identically in the server and the browser.
 *
 * The library reads a Date's local fields (getHours, getDay...). To evaluate in another zone we hand
 * it a "wall clock" Date whose local fields are the zone's wall-clock time now, and turn the dates it
 * answers back into wall-clock text of that zone.
 */
import OpeningHours from 'opening_hours';

/** §9: the library's warning severity (4, warnings only). */
export const OPENING_HOURS_WARNING_SEVERITY = 4;
/** §9: minutes in a day. */
export const MINUTES_PER_DAY = 1440;
/** How far ahead the next change is looked for. */
const NEXT_CHANGE_HORIZON_MS = 8 * 24 * 3600_000;

export interface OpenNow {
  /** the opening_hours string as written (shown as written when it cannot be parsed). */
  text: string;
  time_zone_name: string;
  /** open, closed, or unknown (the rule says so, or the string could not be parsed). */
  state: 'open' | 'closed' | 'unknown';
  /** true/false, or null when unknown. */
  open: boolean | null;
  /** the comment of the matching rule ("by appointment"), if any. */
  comment: string | null;
  /** the next opening or closing as wall-clock time in the point's zone, 'YYYY-MM-DDTHH:mm', or null. */
  next_change: string | null;
  /** the library's warnings (a wrong word corrected, a value that looks wrong). */
  warnings: string[];
  /** the library's parse error, when the string could not be parsed; null otherwise. */
  error: string | null;
}

/** Answers of isTimeZone: asking Intl costs a formatter (0.1 ms); there are a few hundred zone names. */
const knownZones = new Map<string, boolean>();
const MAX_KNOWN_ZONES = 2000;

/** True when the runtime knows this IANA zone name. */
export function isTimeZone(name: string | null | undefined): name is string {
  if (!name) return false;
  let known = knownZones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (knownZones.size >= MAX_KNOWN_ZONES) knownZones.clear();
    knownZones.set(name, known);
  }
  return known;
}

/**
 * Parsed opening_hours values, most recently used last. Parsing is the expensive part (about a
 * millisecond); points share a few thousand distinct strings, and a parsed value is immutable.
 */
const parsed = new Map<string, Parsed | string>();

/** A parsed value and its warnings (asking the library for them re-checks the whole value). */
interface Parsed {
  oh: OpeningHours;
  warnings: string[];
}
const MAX_PARSED = 5000;

/** The parsed value for (text, country), or the parse error's message. */
function parse(text: string, country: string | null | undefined, lat = 0, lon = 0): Parsed | string {
  // only public and school holidays (PH, SH) depend on the country: other strings are shared by all
  const countryCode = /\b[PS]H\b/.test(text) ? country : null;
  const key = `${countryCode ?? ''}\u0000${text}`;
  const hit = parsed.get(key);
  if (hit !== undefined) {
    parsed.delete(key);
    parsed.set(key, hit);
    return hit;
  }
  let value: Parsed | string;
  try {
    const nominatim = countryCode
      ? { lat, lon, address: { country_code: countryCode.toLowerCase(), state: '' } }
      : null;
    const oh = new OpeningHours(text, nominatim, {
      mode: 0,
      tag_key: 'opening_hours',
      map_value: false,
      warnings_severity: OPENING_HOURS_WARNING_SEVERITY,
      locale: 'en',
    });
    value = { oh, warnings: oh.getWarnings() };
  } catch (error) {
    value = String(error instanceof Error ? error.message : error).trim() || 'could not be parsed';
  }
  if (parsed.size >= MAX_PARSED) {
    const oldest = parsed.keys().next().value;
    if (oldest !== undefined) parsed.delete(oldest);
  }
  parsed.set(key, value);
  return value;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `instant` in `timeZone`. */
function wallClockParts(instant: number, timeZone: string): number[] {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return [
    parts['year'] ?? 1970,
    parts['month'] ?? 1,
    parts['day'] ?? 1,
    parts['hour'] ?? 0,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  ];
}

/** A Date whose LOCAL fields equal the wall-clock time of `instant` in `timeZone`. */
export function wallClockDate(instant: number, timeZone: string): Date {
  const [year, month, day, hour, minute, second] = wallClockParts(instant, timeZone) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return new Date(year, month - 1, day, hour, minute, second);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A wall-clock Date (local fields) as 'YYYY-MM-DDTHH:mm'. */
function wallClockText(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Whether a place is open at `now` by its opening_hours string, in `timeZone` (an IANA name; UTC
 * when unknown). `countryCode` (ISO alpha-2) lets public-holiday rules (PH) work. A string the library
 * cannot parse gives state 'unknown' with its message in `error`: the caller shows the text as written
 * and logs the warning (§8).
 */
export function evaluateOpeningHours(
  text: string,
  timeZone: string | null | undefined,
  now: number,
  options: { countryCode?: string | null; lat?: number; lon?: number } = {},
): OpenNow {
  // opening hours have minute resolution: within one minute the same value in the same zone answers the same
  const minute = Math.floor(now / MINUTE_MS);
  if (minute !== answersMinute) {
    answers.clear();
    answersMinute = minute;
  }
  const key = `${timeZone ?? ''}\u0000${options.countryCode ?? ''}\u0000${text}`;
  const hit = answers.get(key);
  if (hit) return hit;
  const answer = evaluateNow(text, timeZone, now, options);
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(key, answer);
  return answer;
}

const MINUTE_MS = 60_000;
const MAX_ANSWERS = 10_000;
let answersMinute = -1;
const answers = new Map<string, OpenNow>();

function evaluateNow(
  text: string,
  timeZone: string | null | undefined,
  now: number,
  options: { countryCode?: string | null; lat?: number; lon?: number },
): OpenNow {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const base: OpenNow = {
    text,
    time_zone_name: zone,
    state: 'unknown',
    open: null,
    comment: null,
    next_change: null,
    warnings: [],
    error: null,
  };
  const parsedValue = parse(text, options.countryCode, options.lat, options.lon);
  if (typeof parsedValue === 'string') return { ...base, error: parsedValue };
  const { oh, warnings } = parsedValue;
  const at = wallClockDate(now, zone);
  try {
    // one iterator answers the state, the comment and the next change (each getter alone builds its own)
    const iterator = oh.getIterator(at);
    const unknown = iterator.getUnknown();
    const open = iterator.getState();
    const comment = iterator.getComment() ?? null;
    const next = iterator.advance(new Date(at.getTime() + NEXT_CHANGE_HORIZON_MS))
      ? iterator.getDate()
      : null;
    return {
      ...base,
      state: unknown ? 'unknown' : open ? 'open' : 'closed',
      open: unknown ? null : open,
      comment,
      next_change: next ? wallClockText(next) : null,
      warnings,
    };
  } catch (error) {
    // evaluation errors (a holiday rule without a country) are reported like parse errors
    return { ...base, warnings, error: String(error instanceof Error ? error.message : error).trim() };
  }
}
