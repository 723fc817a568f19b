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
 * The segment's rules, checked by hand rather than with zod (issue 23): every page's first script reads
 * addresses, and zod cost the first screen 24 KB gzip with its classic API, 14 KB with its mini one,
 * for five small objects. A field's problem reads as zod words it (`path: message`, all of them), which
 * the bad-link notice quotes (web/shell/badLink.ts); unknown fields are ignored.
 */
class Rules {
  readonly issues: string[] = [];

  private fail(path: string, message: string): false {
    this.issues.push(`${path}: ${message}`);
    return false;
  }

  object(value: unknown, path: string): value is Record<string, unknown> {
    return (
      isPlainObject(value) || this.fail(path, `Invalid input: expected object, received ${kindOf(value)}`)
    );
  }

  number(value: unknown, path: string, min: number, max: number, integer = false): void {
    if (typeof value !== 'number' || !Number.isFinite(value))
      this.fail(path, `Invalid input: expected number, received ${kindOf(value)}`);
    else if (integer && !Number.isInteger(value))
      this.fail(path, 'Invalid input: expected int, received number');
    else if (value < min) this.fail(path, `Too small: expected number to be >=${min}`);
    else if (value > max) this.fail(path, `Too big: expected number to be <=${max}`);
  }

  text(value: unknown, path: string, maxLength: number, rule?: (text: string) => string | null): void {
    if (typeof value !== 'string')
      this.fail(path, `Invalid input: expected string, received ${kindOf(value)}`);
    else if (value.length > maxLength)
      this.fail(path, `Too big: expected string to have <=${maxLength} characters`);
    else {
      const problem = rule?.(value) ?? null;
      if (problem !== null) this.fail(path, problem);
    }
  }

  oneOf(value: unknown, path: string, options: readonly unknown[], words: string): void {
    if (!options.includes(value)) this.fail(path, words);
  }

  location(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.number(value.zoom, `${path}.zoom`, MIN_ZOOM, MAX_ZOOM);
    this.number(value.lng, `${path}.lng`, -180, 180);
    this.number(value.lat, `${path}.lat`, -90, 90);
  }

  /**
   * Search bounds come from the map's bounds, whose longitudes are not wrapped when the view crosses
   * the antimeridian, so they may lie in [-360, 360]. The map centre (`loc.lng`) is wrapped.
   */
  corner(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.number(value.lat, `${path}.lat`, -90, 90);
    this.number(value.lon, `${path}.lon`, -360, 360);
  }

  id(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.text(value.id, `${path}.id`, Infinity, (id) =>
      isValidId(id) ? null : 'letters, digits, underscore and hyphen only',
    );
  }

  search(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    if (value.supertype !== undefined)
      this.text(value.supertype, `${path}.supertype`, 32, (name) =>
        searchSupertype(name) === 'invalid' ? 'not a searchable supertype' : null,
      );
    if (value.keywords !== undefined) this.text(value.keywords, `${path}.keywords`, MAX_KEYWORDS_LENGTH);
    if (value.southwest !== undefined) this.corner(value.southwest, `${path}.southwest`);
    if (value.northeast !== undefined) this.corner(value.northeast, `${path}.northeast`);
    const paging = value.paging;
    if (paging === undefined || !this.object(paging, `${path}.paging`)) return;
    if (paging.pageNumber !== undefined)
      this.number(paging.pageNumber, `${path}.paging.pageNumber`, 1, MAX_PAGE_NUMBER, true);
    if (paging.pageSize !== undefined)
      this.oneOf(paging.pageSize, `${path}.paging.pageSize`, SEARCH_PAGE_SIZES, 'page size 12, 24, 48 or 96');
  }

  cluster(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.oneOf(
      value.group,
      `${path}.group`,
      LAYER_GROUPS,
      `Invalid option: expected one of ${LAYER_GROUPS.join('|')}`,
    );
    this.number(value.id, `${path}.id`, 0, Number.MAX_SAFE_INTEGER, true);
  }

  data(value: Record<string, unknown>): void {
    if (value.loc !== undefined) this.location(value.loc, 'loc');
    if (value.search !== undefined) this.search(value.search, 'search');
    if (value.event !== undefined) this.id(value.event, 'event');
    if (value.xpoint !== undefined) this.id(value.xpoint, 'xpoint');
    if (value.cluster !== undefined) this.cluster(value.cluster, 'cluster');
  }
}

/** A JSON value's kind, as a problem names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return typeof value;
}

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
  const rules = new Rules();
  rules.location(value, 'loc');
  return rules.issues.length === 0 ? roundLocation(value as MapLocation) : null;
}

/** Validates pruned JSON against the schema; the reason names the first bad field. */
function validate(json: unknown): DataResult {
  const pruned = prune(json, 0) ?? {};
  if (!isPlainObject(pruned)) return { ok: false, reason: 'data is not a JSON object' };
  const rules = new Rules();
  rules.data(pruned);
  if (rules.issues.length > 0) return { ok: false, reason: rules.issues.join('; ') };
  // the rules checked every field normaliseData reads; it copies only those
  return { ok: true, value: normaliseData(pruned as MapData) };
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
