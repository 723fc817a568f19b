import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { CitiesTable, Database } from '../../store/schema';

/** A city as the nearest-city and city-search calls return it (spec: map-and-search §3, social §3). */
export type CityOption = Omit<CitiesTable, 'time_zone'>;

/** A nearest city, with its great-circle distance from the asked point in metres. */
export interface NearCity extends CityOption {
  distance_m: number;
}

/** The columns of a CityOption; loading adds the time zone. */
export const CITY_COLUMNS = [
  'id',
  'city',
  'city_forurl',
  'state',
  'country',
  'iso2',
  'lat',
  'lon',
  'population',
] as const;

/** Mean Earth radius (IUGG), in metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
/** Half the circumference: no two points on Earth are farther apart. */
const MAX_DISTANCE_M = Math.PI * EARTH_RADIUS_M;
/** The first search radius; dense regions answer at once, empty ones (oceans, poles) widen it. */
const FIRST_RADIUS_M = 25_000;
const RADIUS_GROWTH = 2;
/** Most cities one nearest-city call may return. */
export const MAX_CLOSEST = 100;
/** Most cities one autocomplete call may return (social §9: autocomplete limit 10). */
export const MAX_STARTING_WITH = 10;

const toRad = (deg: number) => (deg * Math.PI) / 180;
const toDeg = (rad: number) => (rad * 180) / Math.PI;

/** Great-circle distance in metres (haversine), exact enough for ordering at any distance. */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Wraps a longitude into [-180, 180]. */
function wrapLon(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

interface LatLonBox {
  south: number;
  north: number;
  west: number;
  east: number;
}

/**
 * The lat/lon boxes that hold every place within `radius` metres of (lat, lon): one box, two when
 * the circle crosses the antimeridian, or a band of all longitudes when it reaches a pole.
 */
function boxesAround(lat: number, lon: number, radius: number): LatLonBox[] {
  const angular = radius / EARTH_RADIUS_M;
  const south = lat - toDeg(angular);
  const north = lat + toDeg(angular);
  if (south <= -90 || north >= 90) {
    return [{ south: Math.max(south, -90), north: Math.min(north, 90), west: -180, east: 180 }];
  }
  const ratio = Math.sin(angular) / Math.cos(toRad(lat));
  if (ratio >= 1) return [{ south, north, west: -180, east: 180 }];
  const dLon = toDeg(Math.asin(ratio));
  const west = lon - dLon;
  const east = lon + dLon;
  if (west < -180)
    return [
      { south, north, west: west + 360, east: 180 },
      { south, north, west: -180, east },
    ];
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}

interface Candidate {
  id: number;
  distance: number;
}

/** The ids, coordinates and distances of the cities in the boxes, nearest first (ties by id). */
async function candidatesIn(
  db: Kysely<Database>,
  at: { lat: number; lon: number },
  boxes: LatLonBox[] | 'everywhere',
): Promise<Candidate[]> {
  let query = db.selectFrom('cities').select(['id', 'lat', 'lon']);
  if (boxes !== 'everywhere') {
    query = query.where((eb) =>
      eb.or(
        boxes.map((b) =>
          eb.and([
            eb('lat', '>=', b.south),
            eb('lat', '<=', b.north),
            eb('lon', '>=', b.west),
            eb('lon', '<=', b.east),
          ]),
        ),
      ),
    );
  }
  const rows = await query.execute();
  return rows
    .map((row) => ({ id: row.id, distance: distanceMeters(at.lat, at.lon, row.lat, row.lon) }))
    .sort((a, b) => a.distance - b.distance || a.id - b.id);
}

/** The `count` nearest candidates: boxes doubling from FIRST_RADIUS_M, then one box that must hold them. */
async function nearestCandidates(
  db: Kysely<Database>,
  at: { lat: number; lon: number },
  count: number,
): Promise<Candidate[]> {
  for (let radius = FIRST_RADIUS_M; radius < MAX_DISTANCE_M; radius *= RADIUS_GROWTH) {
    const inBox = await candidatesIn(db, at, boxesAround(at.lat, at.lon, radius));
    const bound = inBox[count - 1]?.distance;
    if (bound === undefined) continue;
    // Every city within `radius` is in the box, so if the n-th is that near the list is complete;
    // otherwise none of the true nearest n is farther than the n-th found, and its box holds them.
    if (bound <= radius) return inBox.slice(0, count);
    return (await candidatesIn(db, at, boxesAround(at.lat, at.lon, bound * 1.000001))).slice(0, count);
  }
  // fewer than `count` cities anywhere
  return (await candidatesIn(db, at, 'everywhere')).slice(0, count);
}

/**
 * The `n` cities nearest to (lat, lng) by great-circle distance, nearest first (ties by id).
 * Looks in a small box around the point (the lat/lon index answers it), doubling it until it
 * holds `n` cities; the n-th distance found there bounds the answer, so one last box of that
 * radius holds the true nearest `n`. A call reads a few hundred rows, not the whole table, and
 * works across the antimeridian and at the poles. Returns [] for n < 1 or coordinates that are
 * not numbers.
 */
export async function closestCities(
  db: Kysely<Database>,
  lat: number,
  lng: number,
  n: number,
): Promise<NearCity[]> {
  const count = Math.min(Math.floor(n), MAX_CLOSEST);
  if (!(count >= 1) || !Number.isFinite(lat) || !Number.isFinite(lng)) return [];
  const at = { lat: Math.max(-90, Math.min(90, lat)), lon: wrapLon(lng) };
  const nearest = await nearestCandidates(db, at, count);
  if (nearest.length === 0) return [];
  const rows = await db
    .selectFrom('cities')
    .select(CITY_COLUMNS)
    .where(
      'id',
      'in',
      nearest.map((c) => c.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return nearest.flatMap((c) => {
    const row = byId.get(c.id);
    return row ? [{ ...row, distance_m: Math.round(c.distance) }] : [];
  });
}

/** Letters that Unicode decomposition leaves alone, spelled the way people type them in ASCII. */
const TRANSLITERATE: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ə: 'e',
};
const TRANSLITERATED = new RegExp(`[${Object.keys(TRANSLITERATE).join('')}]`, 'g');

/**
 * A name folded to lower-case ASCII words joined by '-': accents dropped ('Zürich' -> 'zurich'),
 * apostrophes dropped ("N'Djamena" -> 'ndjamena'), other runs of non-alphanumerics -> '-'.
 * Leading and trailing dashes are kept, so a typed prefix folds to a prefix of the folded name.
 */
export function foldName(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(TRANSLITERATED, (ch) => TRANSLITERATE[ch] ?? ch)
    .replace(/['‘’`ʻʼ]/g, '')
    .replace(/[^a-z0-9]+/g, '-');
}

/** A URL slug of a name: its folded form without leading or trailing dashes ('' when nothing is left). */
export function slugify(text: string): string {
  return foldName(text).replace(/^-+|-+$/g, '');
}

const bytewiseCache = new WeakMap<Kysely<Database>, Promise<boolean>>();

/**
 * Whether text comparison in this database orders slugs ([a-z0-9-]) bytewise, so that a prefix is a
 * range of the city_forurl index. Always on SQLite (BINARY). On PostgreSQL it depends on the
 * database collation: C and C.UTF-8 do, linguistic ones (en_US) skip the dash and do not. Asked
 * once per database by comparing strings that the two kinds order differently.
 */
function slugsCompareBytewise(db: Kysely<Database>): Promise<boolean> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return Promise.resolve(true);
  let answer = bytewiseCache.get(db);
  if (!answer) {
    answer = sql<{ bytewise: boolean }>`select ('a-z' < 'ab' and 'a-b' < 'a.' and 'b-' < 'b0') as bytewise`
      .execute(db)
      .then((r) => r.rows[0]?.bytewise === true)
      .catch(() => false);
    bytewiseCache.set(db, answer);
  }
  return answer;
}

/** The smallest string greater than every string that starts with `prefix` (prefix of [a-z0-9-]). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * Cities whose name starts with `text`, ignoring case, accents and punctuation ('sao p' finds
 * São Paulo), most populous first; for the city autocomplete (limit up to 10).
 *
 * Latin-script input is matched against city_forurl, the slug of the name, through its unique
 * index; the slug's country suffix can add false candidates ('bad-de' for 'Bad D'), which the
 * folded name removes. Input with no Latin letter or digit (Cyrillic, Greek...) matches the raw
 * name prefix.
 */
export async function citiesStartingWith(
  db: Kysely<Database>,
  text: string,
  limit = MAX_STARTING_WITH,
): Promise<CityOption[]> {
  const max = Math.min(Math.floor(limit), MAX_STARTING_WITH);
  const typed = text
    .normalize('NFC')
    .replace(/\p{C}+/gu, '')
    .trimStart();
  if (!(max >= 1) || !/[\p{L}\p{N}]/u.test(typed)) return [];
  const prefix = foldName(typed).replace(/^-+/, '');
  if (prefix.replace(/-/g, '') === '') {
    // Only a handful of names have no Latin letter, so this scan is rare; as typed or capitalised.
    const escaped = typed.replace(/[\\%_]/g, (ch) => `\\${ch}`);
    const capitalised = escaped.charAt(0).toLocaleUpperCase() + escaped.slice(1);
    return db
      .selectFrom('cities')
      .select(CITY_COLUMNS)
      .where(
        sql<boolean>`(city like ${`${escaped}%`} escape '\\' or city like ${`${capitalised}%`} escape '\\')`,
      )
      .orderBy('population', 'desc')
      .orderBy('id')
      .limit(max)
      .execute();
  }
  let query = db.selectFrom('cities').select(CITY_COLUMNS).where('city_forurl', 'like', `${prefix}%`);
  // The range lets the unique index answer; under a linguistic collation it would miss rows, so
  // there the LIKE alone decides (a scan of the table, some 20 ms). A single letter matches a
  // twentieth of all cities: reading them by population and stopping at the first few is faster.
  if (!/^[a-z]$/.test(prefix) && (await slugsCompareBytewise(db))) {
    query = query.where('city_forurl', '>=', prefix).where('city_forurl', '<', prefixEnd(prefix));
  }
  const candidates = await query
    .orderBy('population', 'desc')
    .orderBy('id')
    .limit(max * 4 + 20)
    .execute();
  return candidates.filter((c) => foldName(c.city).replace(/^-+/, '').startsWith(prefix)).slice(0, max);
}

/** The city with this slug (the /cads/{city_forurl} page), or undefined. */
export async function cityBySlug(db: Kysely<Database>, slug: string): Promise<CityOption | undefined> {
  return db
    .selectFrom('cities')
    .select(CITY_COLUMNS)
    .where('city_forurl', '=', slug.toLowerCase())
    .executeTakeFirst();
}
