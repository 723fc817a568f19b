import { sql } from 'kysely';
import type { Store } from './store';

/**
 * Dialect-specific spatial and text queries over points, answered by the indexes the first
 * migration builds: SQLite R*Tree and FTS5, PostgreSQL GiST and GIN. The in-process search engine
 * answers the hot paths; these are its fallback and its source when it is built.
 */

/** A map viewport in degrees. west > east means the viewport crosses the antimeridian. */
export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

interface LonRange {
  west: number;
  east: number;
}

/** Wraps a longitude into [-180, 180). */
function wrapLon(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/**
 * The longitude ranges of a viewport, each within [-180, 180]: one, two when it crosses the
 * antimeridian, or the whole circle when it spans 360 degrees or more. Map libraries report
 * longitudes beyond ±180 when the world repeats; they are wrapped first.
 */
export function lonRanges(west: number, east: number): LonRange[] {
  if (east - west >= 360) return [{ west: -180, east: 180 }];
  const w = west >= -180 && west <= 180 ? west : wrapLon(west);
  const e = east >= -180 && east <= 180 ? east : wrapLon(east) === -180 ? 180 : wrapLon(east);
  if (w <= e) return [{ west: w, east: e }];
  return [
    { west: w, east: 180 },
    { west: -180, east: e },
  ];
}

/**
 * Ids of the points inside the bounds (edges included), at most `limit`, in no particular order.
 * Empty for bounds that are not numbers or whose south is above their north.
 */
export async function pointsInBounds(store: Store, bounds: Bounds, limit: number): Promise<string[]> {
  const { south, west, north, east } = bounds;
  const max = Math.floor(limit);
  if (![south, west, north, east].every(Number.isFinite) || south > north || !(max >= 1)) return [];
  const ranges = lonRanges(west, east);
  const found: string[] = [];
  for (const range of ranges) {
    const rows =
      store.dialect === 'sqlite'
        ? // The R*Tree keeps 32-bit floats rounded outwards, so it finds a superset; the exact
          // columns settle the points on the edges.
          await sql<{ id: string }>`
            select p.id from points_rtree r join points p on p.seq = r.seq
            where r.min_lat <= ${north} and r.max_lat >= ${south}
              and r.min_lon <= ${range.east} and r.max_lon >= ${range.west}
              and p.lat between ${south} and ${north} and p.lon between ${range.west} and ${range.east}
            limit ${max - found.length}`.execute(store.db)
        : // The same expression as the points_geo GiST index, so the index answers it.
          await sql<{ id: string }>`
            select id from points
            where point(lon, lat) <@ box(point(${range.west}::float8, ${south}::float8), point(${range.east}::float8, ${north}::float8))
            limit ${max - found.length}`.execute(store.db);
    for (const row of rows.rows) found.push(row.id);
    if (found.length >= max) break;
  }
  return found;
}

/** Most distinct words of a text query that are searched for. */
const MAX_WORDS = 8;

/**
 * The words of a query as the full-text tokenisers see them: runs of letters, marks and digits,
 * lower-cased. Everything else (quotes, operators, brackets) separates words, so no input can
 * form query syntax.
 */
export function queryWords(query: string): string[] {
  const words =
    query
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** A word without its accents ('café' -> 'cafe'). */
function unaccented(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
}

/**
 * Ids of the points whose title, tagline, type or address has a word starting with each word of
 * the query (all words must match), best match first; at most `limit`. Case-insensitive, and
 * accent-insensitive for accented input ('café' finds 'Cafe' and 'café'). An empty or
 * punctuation-only query finds nothing; no input throws.
 */
export async function searchPointsText(store: Store, query: string, limit: number): Promise<string[]> {
  const words = queryWords(query);
  const max = Math.floor(limit);
  if (words.length === 0 || !(max >= 1)) return [];
  if (store.dialect === 'sqlite') {
    // FTS5 query: "word"* per word, implicitly AND-ed; the tokenizer removes diacritics itself.
    const match = words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
    const result = await sql<{ id: string }>`
      select p.id from points_fts f join points p on p.seq = f.rowid
      where points_fts match ${match}
      order by f.rank, p.seq
      limit ${max}`.execute(store.db);
    return result.rows.map((r) => r.id);
  }
  // tsquery: 'word':* per word AND-ed, accents folded as in the index (xp_fold). Words are letters
  // and digits only, so quoting them is enough to keep any input from being read as tsquery syntax.
  const tsquery = words
    .map((w) => unaccented(w) || w)
    .map((w) => `'${w}':*`)
    .join(' & ');
  // The same expression as the points_text GIN index, so the index answers it.
  const document = sql`to_tsvector('simple', xp_fold(coalesce(title, '') || ' ' || coalesce(tagline, '') || ' ' || type || ' ' || coalesce(full_address, '')))`;
  const result = await sql<{ id: string }>`
    select id from points
    where ${document} @@ to_tsquery('simple', ${tsquery})
    order by ts_rank(${document}, to_tsquery('simple', ${tsquery})) desc, seq
    limit ${max}`.execute(store.db);
  return result.rows.map((r) => r.id);
}
