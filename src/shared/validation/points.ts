/**
 * The rules of point and event forms (issue 8; map-and-search §3, §5, §9; social §5), shared by the
 * server's write API and the browser's add-new and edit forms. Pure functions, no I/O.
 *
 * The opening-hours check lives in ./openingHours (it needs the `opening_hours` library, ~800 KB with
 * its holiday tables): this module is imported by every write contract, including the full-screen
 * page's, which must not load the library.
 */

/** Social §5: dates before 1901 are invalid. Epoch milliseconds of 1901-01-01T00:00:00Z. */
export const MIN_DATE_MS = Date.UTC(1901, 0, 1);
/** A bound on dates people type: nothing we list happens after the year 9999. */
export const MAX_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** Spec §9: up to 14 screenshots per point (url_screenshot_1 .. url_screenshot_14). */
export const MAX_SCREENSHOTS = 14;
/** Spec §3 healthdata, §7 healthphoto: a point's health photos take positions 1..20 (migration 0004). */
export const MAX_HEALTH_PHOTOS = 20;
/**
 * Spec §3, §5, §9: a description over 250 characters collapses behind a toggle. It is a display
 * limit, not a length limit: the toggle exists only for longer descriptions, so longer ones are kept.
 */
export const DESCRIPTION_COLLAPSE_CHARS = 250;
/** The possible-duplicate check looks this far around a new point (issue 8: "within 100 m"). */
export const DUPLICATE_RADIUS_M = 100;
/** Spec §9: opening-hours warnings are reported from severity 4 (warning) up. */
export const OPENING_HOURS_WARNING_SEVERITY = 4;

/** Social §5 boolean parsing: these words are true or false; anything else is not a boolean. */
const TRUE_WORDS = new Set(['1', 'true', 'on', 'checked', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no']);

/** A form value as a boolean per social §5, or undefined when it is none of the words. */
export function parseFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * A date from a form or an API client: epoch milliseconds, or an ISO 8601 date-time (a bare date is
 * midnight UTC). Undefined when it is neither; range checks are separate (`dateProblem`).
 */
export function parseDate(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^-?\d{1,15}$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text))
    return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** 'before1901', 'tooLate' or null. */
export function dateProblem(ms: number): 'before1901' | 'tooLate' | null {
  if (ms < MIN_DATE_MS) return 'before1901';
  if (ms > MAX_DATE_MS) return 'tooLate';
  return null;
}

/** One opening-hours warning, placed so a form can point at the character it is about. */
export interface OpeningHoursWarning {
  /** the library's warning type, e.g. 'word_error_correction', 'without_minutes'. */
  type: string;
  message: string;
  /** character offset into the value, or null when the warning is about the whole value. */
  position: number | null;
}

/** Where a point is, so rules with public holidays or sunrise can be evaluated (opening_hours' nominatim object). */
export interface OpeningHoursPlace {
  lat: number;
  lon: number;
  /** ISO 3166-1 alpha-2, lower or upper case. */
  countryCode?: string | null;
  state?: string | null;
}

/**
 * A name folded for comparison: lower case, accents and punctuation dropped, words separated by one
 * space ('Café  de la Paix!' -> 'cafe de la paix').
 */
export function foldPointName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/['‘’`ʻʼ]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Levenshtein distance, stopping early once it exceeds `max` (returns max + 1 then). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}

/** Words too common in place names to make two names alike on their own. */
const NAME_STOPWORDS = new Set([
  'the',
  'a',
  'an',
  'of',
  'and',
  'de',
  'la',
  'le',
  'el',
  'der',
  'die',
  'das',
  'du',
  'des',
]);

function nameTokens(folded: string): Set<string> {
  return new Set(folded.split(' ').filter((w) => w.length >= 2 && !NAME_STOPWORDS.has(w)));
}

/**
 * Whether two place names are the same or similar enough to ask "is this the same place?":
 * equal after folding; a small edit distance (1 for short names, 2 from 8 characters, 3 from 16);
 * or most words shared (at least two thirds of the longer name's words, stopwords aside):
 * 'Central Café' ~ 'Café Central Tour', but 'Bare bike' is not 'Bare boat'. 'Joe's Pizza' ~ 'Joes Pizza', 'Cafe Central' ~ 'Café Centrale'.
 */
export function similarNames(a: string, b: string): boolean {
  const x = foldPointName(a);
  const y = foldPointName(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const compactX = x.replace(/ /g, '');
  const compactY = y.replace(/ /g, '');
  if (compactX === compactY) return true;
  const shorter = Math.min(compactX.length, compactY.length);
  const allowed = shorter >= 16 ? 3 : shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
  if (allowed > 0 && editDistance(compactX, compactY, allowed) <= allowed) return true;
  const tx = nameTokens(x);
  const ty = nameTokens(y);
  if (tx.size === 0 || ty.size === 0) return false;
  let shared = 0;
  for (const word of tx) if (ty.has(word)) shared++;
  return shared > 0 && shared * 3 >= Math.max(tx.size, ty.size) * 2;
}

/** Great-circle distance in metres (haversine on the mean Earth radius). */
export function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A website or facebook link: http(s) URLs, or a bare host name with an optional path, which is
 * given an https:// scheme. Anything else (javascript:, mailto:, spaces) is null: not a link.
 */
export function normaliseLink(value: string): string | null {
  const text = value.trim();
  const withScheme = /^https?:\/\//i.test(text)
    ? text
    : /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?([/?#]\S*)?$/i.test(text)
      ? `https://${text}`
      : null;
  if (!withScheme || /\s/.test(withScheme)) return null;
  try {
    const url = new URL(withScheme);
    return url.hostname.includes('.') || url.hostname === 'localhost' ? withScheme : null;
  } catch {
    return null;
  }
}

/** Phone numbers as people write them: digits with spaces, dots, dashes, brackets and a leading +. */
export const PHONE_PATTERN = /^\+?[0-9 ().-]{3,32}$/;
export function isValidPhone(value: string): boolean {
  return PHONE_PATTERN.test(value.trim()) && (value.match(/\d/g)?.length ?? 0) >= 3;
}
