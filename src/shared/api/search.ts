import { z } from 'zod';
import { AppError, type ErrorName } from '../errors';

/**
 * Contracts of the two search calls (map-and-search §7): POST /v1/app/searchsuggestions (form fields
 * or JSON) and POST /v1/webonly/pagedmapsearch (JSON). The server parses requests with
 * parseSuggestionRequest / parsePagedSearchRequest (errors are the catalogue's 5xxx entries); the web
 * app parses answers with the response schemas.
 */

/** §9: at most 10 suggestions, at least 1 character, addresses truncated to 140 characters. */
export const SUGGESTIONS_MAX = 10;
export const QUERY_MIN_LENGTH = 1;
export const SUGGESTION_ADDRESS_MAX_LENGTH = 140;
/** Longer queries are refused: nobody types this much into a search box. */
export const QUERY_MAX_LENGTH = 200;
/** §9: page sizes; the default; the fallback for any other size. */
export const PAGE_SIZES = [12, 24, 48, 96] as const;
export const PAGE_SIZE_DEFAULT = 12;
export const PAGE_SIZE_FALLBACK = 24;
/** Results past this rank are not served (pages beyond it are empty), so no page costs more than this window. */
export const RESULT_WINDOW = 10_000;
/** Supertypes a search may be limited to (§2: the `supertype=` prefix of keywords). */
export const SEARCH_SUPERTYPES = [
  'service',
  'virtualstore',
  'poi',
  'business',
  'experience',
  'rental',
  'event',
  'helprequest',
  'incident',
] as const;
export type SearchSupertype = (typeof SEARCH_SUPERTYPES)[number];

export const latLonSchema = z.object({ lat: z.number(), lon: z.number() });
export type LatLon = z.infer<typeof latLonSchema>;

/** The area searched: southwest and northeast corners; west > east crosses the antimeridian. */
export interface SearchBounds {
  southwest: LatLon;
  northeast: LatLon;
}

export const suggestionRequestSchema = z.object({
  q: z.string().min(QUERY_MIN_LENGTH).max(QUERY_MAX_LENGTH),
  maxresults: z.number().int().min(1).max(SUGGESTIONS_MAX).default(SUGGESTIONS_MAX),
  includeevents: z.boolean().default(false),
  southwest: latLonSchema.optional(),
  northeast: latLonSchema.optional(),
});
export type SuggestionRequest = z.infer<typeof suggestionRequestSchema>;

export const pagedSearchRequestSchema = z.object({
  keywords: z.string().max(QUERY_MAX_LENGTH),
  southwest: latLonSchema.optional(),
  northeast: latLonSchema.optional(),
  pageNumber: z.number().int().min(1).default(1),
  pageSize: z.number().int().default(PAGE_SIZE_DEFAULT),
  supertype: z.enum(SEARCH_SUPERTYPES).nullable().default(null),
});
export type PagedSearchRequest = z.infer<typeof pagedSearchRequestSchema>;

/** An event a suggestion points at: running now, or starting within 120 minutes (§4). */
export const eventRefSchema = z.object({
  id: z.string(),
  title: z.string(),
  start_date: z.number(),
  end_date: z.number(),
});
export type EventRef = z.infer<typeof eventRefSchema>;

/** §3 search suggestion. */
export const suggestionSchema = z.object({
  id: z.string(),
  lon: z.number(),
  lat: z.number(),
  title: z.string(),
  businesstype: z.string(),
  subtype: z.string(),
  hotpointclickurl: z.string(),
  address: z.string(),
  /** visits this month for hot points, 0 otherwise. */
  hotpointrank: z.number(),
  /** 1 when the point's owner is open to chat now, 0 otherwise. */
  chatrank: z.number(),
  currentevent: eventRefSchema.nullable(),
  upcomingevent: eventRefSchema.nullable(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;
export const suggestionsResponseSchema = z.array(suggestionSchema);

/** §3 marker. */
export const markerSchema = z.object({
  id: z.string(),
  lng: z.number(),
  lat: z.number(),
  title: z.string(),
  type: z.string(),
  subtype: z.string(),
  classes: z.string(),
  select: z.boolean(),
  data: z.object({ hotpointclickurl: z.string() }),
});
export type Marker = z.infer<typeof markerSchema>;

/** §3 search result. */
export const searchResultSchema = z.object({
  marker: markerSchema,
  supertype: z.string(),
  address: z.string(),
  cover_url: z.string().nullable(),
  /** average rating as stars (0-5, one decimal), or null when nobody rated it. */
  stars_rating: z.number().nullable(),
  healthdata: z.object({ status: z.number() }),
  /** events: when it starts (epoch ms); null for points. */
  start_date: z.number().nullable(),
  name: z.string(),
  class: z.string(),
  subclass: z.string(),
  beamtype: z.number(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** §3 page response. */
export const pagedSearchResponseSchema = z.object({
  results: z.array(searchResultSchema),
  /** matches in all pages (an estimate for very broad queries over large areas). */
  posts_total: z.number(),
  page_current: z.number(),
  page_total: z.number(),
  page_size: z.number(),
});
export type PagedSearchResponse = z.infer<typeof pagedSearchResponseSchema>;

// --- parsing requests ------------------------------------------------------------------------------

function fail(name: ErrorName, params: Record<string, string | number>): never {
  throw new AppError(name, params);
}

/** A number from JSON or a form field ('12', '1e9'); undefined when absent or empty. */
function numberField(value: unknown, fail: (reason: string) => never): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return fail('must be a number.');
}

function booleanField(name: string, value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (['true', '1', 'on', 'yes'].includes(lower)) return true;
    if (['false', '0', 'off', 'no'].includes(lower)) return false;
  }
  if (value === 1 || value === 0) return value === 1;
  return fail('searchFieldInvalid', { field: name, reason: 'must be true or false.' });
}

/**
 * A corner: `{lat, lon}` (or `lng`) in JSON, `southwest[lat]=..&southwest[lon]=..` in a form, or a
 * 'lat,lon' string. Latitudes -90..90, longitudes -180..180.
 */
function cornerField(name: string, value: unknown): LatLon | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const bad = (reason: string): never => fail('searchBoundsInvalid', { field: name, reason });
  let lat: unknown;
  let lon: unknown;
  if (typeof value === 'string') {
    const parts = value.split(',');
    if (parts.length !== 2) bad('must be {lat, lon} or "lat,lon".');
    [lat, lon] = parts;
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    lat = record['lat'];
    lon = record['lon'] ?? record['lng'];
  } else bad('must be {lat, lon} or "lat,lon".');
  const latitude = numberField(lat, () => bad('lat must be a number.'));
  const longitude = numberField(lon, () => bad('lon must be a number.'));
  if (latitude === undefined || longitude === undefined) return bad('needs both lat and lon.');
  if (latitude < -90 || latitude > 90) bad('lat must be between -90 and 90.');
  if (longitude < -180 || longitude > 180) bad('lon must be between -180 and 180.');
  return { lat: latitude, lon: longitude };
}

/**
 * Reads form keys like `southwest[lat]` into nested objects (how browsers post nested form data).
 * The objects have no prototype, so a key such as `__proto__[x]` is only a field.
 */
function nestFormKeys(body: Record<string, unknown>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested) {
      const outer = nested[1] as string;
      const current = Object.hasOwn(out, outer) ? out[outer] : undefined;
      let target: Record<string, unknown>;
      if (current && typeof current === 'object') target = current as Record<string, unknown>;
      else out[outer] = target = Object.create(null) as Record<string, unknown>;
      target[nested[2] as string] = value;
    } else if (!Object.hasOwn(out, key)) out[key] = value;
  }
  return out;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    fail('searchFieldInvalid', { field: 'body', reason: 'must be a JSON object or form fields.' });
  return nestFormKeys(body as Record<string, unknown>);
}

function boundsOf(body: Record<string, unknown>): SearchBounds | null {
  const southwest = cornerField('southwest', body['southwest']);
  const northeast = cornerField('northeast', body['northeast']);
  if (!southwest && !northeast) return null;
  if (!southwest || !northeast)
    fail('searchBoundsInvalid', {
      field: southwest ? 'northeast' : 'southwest',
      reason: 'is required when the other corner is given.',
    });
  if (southwest.lat > northeast.lat)
    fail('searchBoundsInvalid', { field: 'southwest', reason: 'must be south of northeast.' });
  return { southwest, northeast };
}

/** Text fields: a string (a single-element array from a repeated form field is taken as its value). */
function textField(value: unknown): string | undefined {
  if (Array.isArray(value) && value.length === 1) return textField(value[0]);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

export interface ParsedSuggestionRequest {
  q: string;
  maxresults: number;
  includeevents: boolean;
  bounds: SearchBounds | null;
}

export function parseSuggestionRequest(input: unknown): ParsedSuggestionRequest {
  const body = objectBody(input);
  const raw = body['q'];
  const text = textField(raw);
  if (raw !== undefined && raw !== null && text === undefined)
    fail('searchQueryInvalid', { reason: 'must be text.' });
  const q = (text ?? '').trim();
  if (q.length < QUERY_MIN_LENGTH)
    fail('searchQueryInvalid', { reason: `type at least ${QUERY_MIN_LENGTH} character.` });
  if (q.length > QUERY_MAX_LENGTH)
    fail('searchQueryInvalid', { reason: `must be at most ${QUERY_MAX_LENGTH} characters long.` });
  const max = numberField(textField(body['maxresults']) ?? body['maxresults'], () =>
    fail('searchMaxResultsInvalid', { reason: 'must be a whole number.' }),
  );
  if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > SUGGESTIONS_MAX))
    fail('searchMaxResultsInvalid', { reason: `must be a whole number from 1 to ${SUGGESTIONS_MAX}.` });
  return {
    q,
    maxresults: max ?? SUGGESTIONS_MAX,
    includeevents: booleanField('includeevents', textField(body['includeevents']) ?? body['includeevents']),
    bounds: boundsOf(body),
  };
}

export interface ParsedPagedSearchRequest {
  /** keywords without the supertype prefix. */
  keywords: string;
  supertype: SearchSupertype | null;
  bounds: SearchBounds | null;
  pageNumber: number;
  pageSize: number;
}

/** §9: 12, 24, 48 or 96; absent means 12; any other size falls back to 24. */
export function pageSizeOf(value: unknown): number {
  if (value === undefined || value === null || value === '') return PAGE_SIZE_DEFAULT;
  const size = typeof value === 'string' ? Number(value) : value;
  return (PAGE_SIZES as readonly unknown[]).includes(size) ? (size as number) : PAGE_SIZE_FALLBACK;
}

function supertypeOf(value: string): SearchSupertype | null {
  const lower = value.trim().toLowerCase();
  // §5: 'all' is removed from the search data; 'none' filters nothing either
  if (lower === '' || lower === 'all' || lower === 'none') return null;
  const name = lower === 'meonmap' ? 'service' : lower;
  if ((SEARCH_SUPERTYPES as readonly string[]).includes(name)) return name as SearchSupertype;
  return fail('searchSupertypeUnknown', { value: value.slice(0, 40), list: SEARCH_SUPERTYPES.join(', ') });
}

/**
 * Keywords may start with a supertype and an equals sign (§2: 'service=plumber'); that prefix wins over
 * the supertype field. Returns the keywords without it.
 */
export function splitSupertypePrefix(keywords: string): { supertype: string | null; keywords: string } {
  const prefixed = /^\s*([A-Za-z]+)\s*=(.*)$/s.exec(keywords);
  if (!prefixed) return { supertype: null, keywords: keywords.trim() };
  return { supertype: prefixed[1] as string, keywords: (prefixed[2] as string).trim() };
}

export function parsePagedSearchRequest(input: unknown): ParsedPagedSearchRequest {
  const body = objectBody(input);
  const raw = body['keywords'];
  const text = textField(raw);
  if (raw !== undefined && raw !== null && text === undefined)
    fail('searchKeywordsInvalid', { reason: 'must be text.' });
  const split = splitSupertypePrefix(text ?? '');
  if (split.keywords.length > QUERY_MAX_LENGTH)
    fail('searchKeywordsInvalid', { reason: `must be at most ${QUERY_MAX_LENGTH} characters long.` });
  const field = textField(body['supertype']);
  if (body['supertype'] !== undefined && body['supertype'] !== null && field === undefined)
    fail('searchFieldInvalid', { field: 'supertype', reason: 'must be text.' });
  const supertype = supertypeOf(split.supertype ?? field ?? '');
  if (split.keywords.length === 0 && supertype === null)
    fail('searchKeywordsInvalid', { reason: 'type what to search for, or choose a supertype.' });
  const pageNumber = numberField(body['pageNumber'], () =>
    fail('searchPageNumberInvalid', { reason: 'must be a whole number from 1.' }),
  );
  if (pageNumber !== undefined && (!Number.isInteger(pageNumber) || pageNumber < 1))
    fail('searchPageNumberInvalid', { reason: 'must be a whole number from 1.' });
  return {
    keywords: split.keywords,
    supertype,
    bounds: boundsOf(body),
    pageNumber: pageNumber ?? 1,
    pageSize: pageSizeOf(body['pageSize']),
  };
}
