import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema';
import type { Store } from '../../store/store';

/**
 * The city page's and the event page's reads (issue 19). Each is one indexed range, bounded by a
 * LIMIT, so a page costs the same in a city of ten posts and in one of a hundred thousand:
 * posts on `posts_city_listed` (city_id, listed_at, id) read backwards; events on `events_city_end`
 * and points on `points_city_visits` (migration 0018).
 */

type Db = Kysely<Database>;

export interface CityRow {
  id: number;
  city: string;
  city_forurl: string;
  state: string | null;
  country: string;
  lat: number;
  lon: number;
  time_zone: string | null;
}

export async function cityByForUrl(store: Store, cityForUrl: string): Promise<CityRow | undefined> {
  const row = await store.db
    .selectFrom('cities')
    .select(['id', 'city', 'city_forurl', 'state', 'country', 'lat', 'lon', 'time_zone'])
    .where('city_forurl', '=', cityForUrl)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id), lat: Number(row.lat), lon: Number(row.lon) } : undefined;
}

export interface PostCandidateRow {
  id: string;
  user_id: string;
  title: string;
  description: string;
  type: string;
  image_url: string | null;
  image_placeholder: string | null;
  image_variants: string | null;
  listed_at: number;
  comments_count: number;
  username: string;
  fullname: string;
  up: number;
  down: number;
}

/**
 * The city's newest live posts (not hidden, not expired at `now`), at most `limit`: the candidates the
 * hot lists are ranked from, with their authors and like counts.
 */
export async function livePosts(
  db: Db,
  cityId: number,
  now: number,
  limit: number,
): Promise<PostCandidateRow[]> {
  const rows = await db
    .selectFrom('posts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('like_counts as lc', (join) =>
      join.on('lc.object_type', '=', 'P').onRef('lc.object_id', '=', 'p.id'),
    )
    .select([
      'p.id',
      'p.user_id',
      'p.title',
      'p.description',
      'p.type',
      'p.image_url',
      'p.image_placeholder',
      'p.image_variants',
      'p.listed_at',
      'p.comments_count',
      'u.username',
      'u.fullname',
      'lc.up',
      'lc.down',
    ])
    .where('p.city_id', '=', cityId)
    .where('p.listed_at', 'is not', null)
    .where('p.hidden_at', 'is', null)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]))
    .orderBy('p.listed_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    listed_at: Number(row.listed_at),
    comments_count: Number(row.comments_count),
    up: Number(row.up ?? 0),
    down: Number(row.down ?? 0),
  }));
}

export interface CityEventRow {
  id: string;
  title: string;
  type: string;
  start_date: number;
  end_date: number;
  cover_url: string | null;
  full_address: string | null;
  lat: number;
  lon: number;
}

/** The city's events that have not ended at `now` and start before `until`, soonest first. */
export async function cityEvents(
  db: Db,
  cityId: number,
  now: number,
  until: number,
  limit: number,
): Promise<CityEventRow[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'title', 'type', 'start_date', 'end_date', 'cover_url', 'full_address', 'lat', 'lon'])
    .where('city_id', '=', cityId)
    .where('end_date', '>', now)
    .where('start_date', '<', until)
    .orderBy('start_date')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    start_date: Number(row.start_date),
    end_date: Number(row.end_date),
    lat: Number(row.lat),
    lon: Number(row.lon),
  }));
}

export interface VisitedPointRow {
  id: string;
  supertype: string;
  type: string;
  title: string;
  stats_this_month: number;
  stats_total: number;
  rating: number | null;
}

/** The city's points most visited this month (then in all), at most `limit`. */
export async function mostVisitedPoints(db: Db, cityId: number, limit: number): Promise<VisitedPointRow[]> {
  const rows = await db
    .selectFrom('points')
    .select(['id', 'supertype', 'type', 'title', 'stats_this_month', 'stats_total', 'rating'])
    .where('city_id', '=', cityId)
    .orderBy('stats_this_month', 'desc')
    .orderBy('stats_total', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    stats_this_month: Number(row.stats_this_month),
    stats_total: Number(row.stats_total),
    rating: row.rating === null ? null : Number(row.rating),
  }));
}

export interface CityMatchRow {
  city: string;
  state: string | null;
  country: string;
  city_forurl: string;
}

/** Cities whose city_forurl starts with `slug` (letters, digits and hyphens), most populous first. */
export async function citiesStartingWith(db: Db, slug: string, limit: number): Promise<CityMatchRow[]> {
  return db
    .selectFrom('cities')
    .select(['city', 'state', 'country', 'city_forurl'])
    .where(sql<boolean>`city_forurl like ${`${slug}%`}`)
    .orderBy('population', 'desc')
    .orderBy('city_forurl')
    .limit(limit)
    .execute();
}

/** The time zone of the city with this city_forurl, if it has one. */
export async function timeZoneOf(db: Db, cityForUrl: string): Promise<string | null> {
  const row = await db
    .selectFrom('cities')
    .select('time_zone')
    .where('city_forurl', '=', cityForUrl)
    .executeTakeFirst();
  return row?.time_zone ?? null;
}
