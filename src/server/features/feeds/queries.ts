import type { Store } from '../../store/store';
import type { PostRow } from '../posts/queries';

/** The landing feed's queries: Kysely only, no rules (those are in service.ts). */

/** A post as the feed shows it: the posts list's row (posts/queries.ts) with its author, city, point and video. */
function selectFeedPosts(store: Store) {
  return store.db
    .selectFrom('posts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('cities as c', 'c.id', 'p.city_id')
    .leftJoin('points as x', 'x.id', 'p.xpoint_id')
    .leftJoin('videos as v', 'v.id', 'p.video_id')
    .select([
      'p.id',
      'p.user_id',
      'p.title',
      'p.description',
      'p.type',
      'p.city_id',
      'p.xpoint_id',
      'p.parent_type',
      'p.image_url',
      'p.image_placeholder',
      'p.image_variants',
      'p.video_url',
      'p.video_id',
      'p.file_resource_bitmask',
      'p.expires_at',
      'p.created_at',
      'p.updated_at',
      'p.listed_at',
      'p.renewed_at',
      'p.hidden_at',
      'p.lat',
      'p.lon',
      'p.version',
      'p.comments_count',
      'u.username',
      'u.fullname',
      'u.avatar_url',
      'c.city as city_name',
      'c.city_forurl',
      'x.title as xpoint_title',
      'v.state as video_state',
      'v.url as video_file_url',
      'v.poster_url as video_poster_url',
      'v.error as video_error',
    ]);
}

/** PostgreSQL answers bigint columns as text: every number is made a number once, here. */
function rowOf(row: Record<string, unknown>): PostRow {
  const n = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    ...(row as unknown as PostRow),
    city_id: n(row['city_id']),
    file_resource_bitmask: Number(row['file_resource_bitmask']),
    expires_at: n(row['expires_at']),
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
    listed_at: n(row['listed_at']),
    renewed_at: n(row['renewed_at']),
    hidden_at: n(row['hidden_at']),
    lat: n(row['lat']),
    lon: n(row['lon']),
    version: Number(row['version']),
    comments_count: Number(row['comments_count']),
  };
}

export interface FeedCursor {
  /** epoch ms: only posts listed before it (or at it, with an id below beforeid) */
  before: number;
  beforeid?: string | undefined;
}

/**
 * One keyset page of a city's live posts (not hidden, not expired at `now`), newest first by
 * (listed_at, id): the index posts_city_listed (migration 0017) walked backwards from the cursor, so
 * a page deep in the feed costs what the first costs, and posts listed while someone pages never
 * shift the pages after the one they read (no duplicates, no gaps).
 */
export async function cityFeedPage(
  store: Store,
  cityId: number,
  cursor: FeedCursor | undefined,
  now: number,
  limit: number,
): Promise<PostRow[]> {
  let query = selectFeedPosts(store)
    .where('p.city_id', '=', cityId)
    .where('p.hidden_at', 'is', null)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]));
  if (cursor === undefined) query = query.where('p.listed_at', 'is not', null);
  else if (cursor.beforeid === undefined) query = query.where('p.listed_at', '<', cursor.before);
  else {
    const { before, beforeid } = cursor;
    query = query
      .where('p.listed_at', '<=', before)
      .where((eb) => eb.or([eb('p.listed_at', '<', before), eb('p.id', '<', beforeid)]));
  }
  const rows = await query.orderBy('p.listed_at', 'desc').orderBy('p.id', 'desc').limit(limit).execute();
  return rows.map(rowOf);
}

/**
 * The same page read by position (`offset` rows skipped): what a page-number feed does. Only for the
 * benchmark's comparison; nothing in the product pages this way.
 */
export async function cityFeedPageByOffset(
  store: Store,
  cityId: number,
  offset: number,
  now: number,
  limit: number,
): Promise<PostRow[]> {
  const rows = await selectFeedPosts(store)
    .where('p.city_id', '=', cityId)
    .where('p.hidden_at', 'is', null)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]))
    .where('p.listed_at', 'is not', null)
    .orderBy('p.listed_at', 'desc')
    .orderBy('p.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map(rowOf);
}

/** Posts by id that are listed in a city, live, and listed after `since` (the live feed's candidates). */
export async function freshlyListed(
  store: Store,
  ids: string[],
  since: number,
  now: number,
): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectFeedPosts(store)
    .where('p.id', 'in', ids)
    .where('p.city_id', 'is not', null)
    .where('p.hidden_at', 'is', null)
    .where('p.listed_at', '>', since)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]))
    .execute();
  return rows.map(rowOf);
}
