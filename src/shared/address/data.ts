import { z } from 'zod';
import { isValidId } from '../domain/ids';
import { parseSupertype } from '../domain/supertypes';
import { LAYER_GROUPS, MAX_ZOOM, MIN_ZOOM } from '../map/contract';
import type { LatLon, MapData, MapLocation, SearchData, SearchPaging, SearchSupertype } from './types';
import { SEARCH_PAGE_SIZES, SEARCH_SUPERTYPES } from './types';

/**
 * The `data=` segment (map-and-search §2): URL-encoded JSON holding loc, search and event (and our
 * `xpoint`), empty fields dropped, numbers rounded (§9). Decoding never throws.
 */

/** Longer encoded segments are refused before any decoding work (no real view needs 8 KB). */
export const MAX_DATA_LENGTH = 8192;
export const MAX_KEYWORDS_LENGTH = 256;
/** A bound on page numbers so an address cannot ask the search for an absurd offset. */
export const MAX_PAGE_NUMBER = 10_000;
export const COORDINATE_DECIMALS = 6;
export const ZOOM_DECIMALS = 2;

export type DataResult = { ok: true; value: MapData } | { ok: false; reason: string };

/** Rounds to `decimals` places; never returns -0 (JSON would lose the sign anyway). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}

/** `all` and `none` mean "no filter" and are removed (§5); `meonmap` is `service`. */
function searchSupertype(value: string): SearchSupertype | null | 'invalid' {
  const parsed = parseSupertype(value);
  if (parsed === 'all' || parsed === 'none') return null;
  return (SEARCH_SUPERTYPES as readonly string[]).includes(parsed ?? '')
    ? (parsed as SearchSupertype)
    : 'invalid';
}

/**
 * The schemas are built on first use, not when the module loads: every page's first script imports
 * the address rules, and building these zod schemas cost about 100 ms of one task on Lighthouse's
 * phone (four times slower than this machine) before the full-screen page could hydrate.
 */
function buildSchemas() {
  const latitude = z.number().min(-90).max(90);
  const idObject = z.object({
    id: z.string().refine(isValidId, 'letters, digits, underscore and hyphen only'),
  });
  /**
   * Search bounds come from the map's bounds, whose longitudes are not wrapped when the view crosses
   * the antimeridian, so they may lie in [-360, 360]. The map centre (`loc.lng`) is wrapped.
   */
  const corner = z.object({ lat: latitude, lon: z.number().min(-360).max(360) });

  const locSchema = z.object({
    zoom: z.number().min(MIN_ZOOM).max(MAX_ZOOM),
    lng: z.number().min(-180).max(180),
    lat: latitude,
  });

  const data = z.object({
    loc: locSchema.optional(),
    search: z
      .object({
        supertype: z
          .string()
          .max(32)
          .refine((value) => searchSupertype(value) !== 'invalid', 'not a searchable supertype')
          .optional(),
        keywords: z.string().max(MAX_KEYWORDS_LENGTH).optional(),
        southwest: corner.optional(),
        northeast: corner.optional(),
        paging: z
          .object({
            pageNumber: z.number().int().min(1).max(MAX_PAGE_NUMBER).optional(),
            pageSize: z
              .number()
              .refine(
                (size) => (SEARCH_PAGE_SIZES as readonly number[]).includes(size),
                'page size 12, 24, 48 or 96',
              )
              .optional(),
          })
          .optional(),
      })
      .optional(),
    event: idObject.optional(),
    xpoint: idObject.optional(),
    cluster: z
      .object({ group: z.enum(LAYER_GROUPS), id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) })
      .optional(),
  });
  return { loc: locSchema, data };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;
const addressSchemas = () => (schemas ??= buildSchemas());

/** Only the known structure is four levels deep (data.search.southwest.lat); deeper is never read. */
const PRUNE_DEPTH = 4;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Drops empty fields (undefined, null, '', [], {}) so that an empty field reads as an absent one.
 * `__proto__` keys are skipped: copying one with `out[key] =` would set the copy's prototype.
 */
function prune(value: unknown, depth: number): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value;
  if (!isPlainObject(value) || depth >= PRUNE_DEPTH) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key === '__proto__') continue;
    const pruned = prune(field, depth + 1);
    if (pruned !== undefined) out[key] = pruned;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function roundCorner(point: LatLon): LatLon {
  return { lat: roundTo(point.lat, COORDINATE_DECIMALS), lon: roundTo(point.lon, COORDINATE_DECIMALS) };
}

function normaliseSearch(search: SearchData): SearchData | undefined {
  const out: SearchData = {};
  const supertype = search.supertype === undefined ? null : searchSupertype(search.supertype);
  if (supertype !== null && supertype !== 'invalid') out.supertype = supertype;
  const keywords = search.keywords?.trim();
  if (keywords) out.keywords = keywords;
  if (search.southwest) out.southwest = roundCorner(search.southwest);
  if (search.northeast) out.northeast = roundCorner(search.northeast);
  const paging: SearchPaging = {};
  if (search.paging?.pageNumber !== undefined) paging.pageNumber = search.paging.pageNumber;
  if (search.paging?.pageSize !== undefined) paging.pageSize = search.paging.pageSize;
  if (Object.keys(paging).length > 0) out.paging = paging;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The canonical form of valid data: empty fields dropped, coordinates rounded to 6 decimals and
 * zoom to 2, keywords trimmed, `all` removed, fields in a fixed order. Idempotent. This is what
 * `decodeData(encodeData(data))` gives back.
 */
export function normaliseData(data: MapData): MapData {
  const out: MapData = {};
  if (data.loc) out.loc = roundLocation(data.loc);
  const search = data.search && normaliseSearch(data.search);
  if (search) out.search = search;
  if (data.event?.id) out.event = { id: data.event.id };
  if (data.xpoint?.id) out.xpoint = { id: data.xpoint.id };
  if (data.cluster) out.cluster = { group: data.cluster.group, id: data.cluster.id };
  return out;
}

function roundLocation(loc: MapLocation): MapLocation {
  return {
    zoom: roundTo(loc.zoom, ZOOM_DECIMALS),
    lng: roundTo(loc.lng, COORDINATE_DECIMALS),
    lat: roundTo(loc.lat, COORDINATE_DECIMALS),
  };
}

/** A map view from untrusted JSON (the location cookie, the hash): valid and rounded, or null. */
export function parseLocation(value: unknown): MapLocation | null {
  const result = addressSchemas().loc.safeParse(value);
  return result.success ? roundLocation(result.data) : null;
}

/** Validates pruned JSON against the schema; the reason names the first bad field. */
function validate(json: unknown): DataResult {
  const pruned = prune(json, 0) ?? {};
  if (!isPlainObject(pruned)) return { ok: false, reason: 'data is not a JSON object' };
  const result = addressSchemas().data.safeParse(pruned);
  if (!result.success) {
    const reasons = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    return { ok: false, reason: reasons.join('; ') };
  }
  // the refinements above checked what the inferred type cannot say (supertype, page size).
  return { ok: true, value: normaliseData(result.data as MapData) };
}

export function isEmptyData(data: MapData): boolean {
  return Object.keys(normaliseData(data)).length === 0;
}

/**
 * The text after `data=`: `encodeURIComponent` of the normalised JSON. Throws on invalid data
 * (an invalid id, an out-of-range coordinate): building a bad address is a programming error.
 */
export function encodeData(data: MapData): string {
  const checked = validate(data);
  if (!checked.ok) throw new Error(`Cannot encode address data: ${checked.reason}`);
  return encodeURIComponent(JSON.stringify(checked.value));
}

/** Reads the text after `data=`. Never throws; unknown fields are ignored. */
export function decodeData(encoded: string): DataResult {
  if (typeof encoded !== 'string') return { ok: false, reason: 'data is not text' };
  if (encoded.length > MAX_DATA_LENGTH) {
    return { ok: false, reason: `data longer than ${MAX_DATA_LENGTH} characters` };
  }
  let text: string;
  try {
    text = decodeURIComponent(encoded);
  } catch {
    return { ok: false, reason: 'data has malformed percent-encoding' };
  }
  if (text.trim() === '') return { ok: true, value: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'data is not valid JSON' };
  }
  return validate(json);
}
