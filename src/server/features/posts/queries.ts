import { sql } from 'kysely';
import { POSTS_COUNT_CAP } from '../../../shared/api/posts';
import type { PostsTable } from '../../store/schema';
import type { Store } from '../../store/store';
import { lonRanges } from '../../store/geo';

/** Post queries: Kysely only, no rules (those are in service.ts). */

/** A post with what its record shows of its author, place, point and video: one row, one round trip. */
export interface PostRow {
  id: string;
  user_id: string;
  title: string;
  description: string;
  type: string;
  city_id: number | null;
  xpoint_id: string | null;
  parent_type: string | null;
  image_url: string | null;
  image_placeholder: string | null;
  image_variants: string | null;
  video_url: string | null;
  video_id: string | null;
  file_resource_bitmask: number;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  listed_at: number | null;
  renewed_at: number | null;
  hidden_at: number | null;
  lat: number | null;
  lon: number | null;
  version: number;
  comments_count: number;
  username: string;
  fullname: string;
  avatar_url: string | null;
  city_name: string | null;
  city_forurl: string | null;
  xpoint_title: string | null;
  video_state: string | null;
  video_file_url: string | null;
  video_poster_url: string | null;
  video_error: string | null;
}

/** A post with its author, city, point and video: the row every posts list (and the landing feed) reads. */
export function selectPosts(store: Store) {
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
export function rowOf(row: Record<string, unknown>): PostRow {
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

export async function findPost(store: Store, id: string): Promise<PostRow | undefined> {
  const row = await selectPosts(store).where('p.id', '=', id).executeTakeFirst();
  return row ? rowOf(row) : undefined;
}

/** Who may see hidden posts in a list: nobody (null), their author (a user id), or everyone (admins). */
export type HiddenVisibleTo = null | { userId: string } | 'all';

interface ListFilter {
  column: 'xpoint_id' | 'user_id';
  value: string;
  /** only posts not expired at this time */
  liveAt?: number;
  hidden: HiddenVisibleTo;
}

function listed(store: Store, filter: ListFilter) {
  let query = store.db.selectFrom('posts').where(filter.column, '=', filter.value);
  const { liveAt, hidden } = filter;
  if (liveAt !== undefined)
    query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', liveAt)]));
  if (hidden === null) query = query.where('hidden_at', 'is', null);
  else if (hidden !== 'all')
    query = query.where((eb) => eb.or([eb('hidden_at', 'is', null), eb('user_id', '=', hidden.userId)]));
  return query;
}

/**
 * One page of posts, newest first (listed_at, then id, both descending: the order of the
 * posts_point_listed and posts_user_listed indexes read backwards, which hold the columns the
 * filters test, so the page is a short index walk and the total an index-only count, stopped at
 * POSTS_COUNT_CAP). The page's
 * rows are joined to their author, city, point and video in the same query: reading the page's ids
 * first and the rows by id after cost a second, random primary-key lookup per row (PostgreSQL p50
 * 3.5 ms for an author's page against 0.7 ms for the old query, bench/posts.ts).
 */
async function page(
  store: Store,
  filter: ListFilter,
  paging: { offset: number; limit: number },
): Promise<{ rows: PostRow[]; total: number; totalCapped: boolean }> {
  const { liveAt, hidden } = filter;
  let query = selectPosts(store).where(`p.${filter.column}`, '=', filter.value);
  if (liveAt !== undefined)
    query = query.where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', liveAt)]));
  if (hidden === null) query = query.where('p.hidden_at', 'is', null);
  else if (hidden !== 'all')
    query = query.where((eb) => eb.or([eb('p.hidden_at', 'is', null), eb('p.user_id', '=', hidden.userId)]));
  const [rows, count] = await Promise.all([
    query
      .orderBy('p.listed_at', 'desc')
      .orderBy('p.id', 'desc')
      .offset(paging.offset)
      .limit(paging.limit)
      .execute(),
    // counted up to one past the cap: the index walk stops there
    store.db
      .selectFrom(
        listed(store, filter)
          .select(sql<number>`1`.as('one'))
          .limit(POSTS_COUNT_CAP + 1)
          .as('listed'),
      )
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const counted = Number(count.n);
  return {
    rows: rows.map(rowOf),
    total: Math.min(counted, POSTS_COUNT_CAP),
    totalCapped: counted > POSTS_COUNT_CAP,
  };
}

/** A point's live posts: not expired at `now`. */
export function pointPosts(
  store: Store,
  xpointId: string,
  now: number,
  hidden: HiddenVisibleTo,
  paging: { offset: number; limit: number },
) {
  return page(store, { column: 'xpoint_id', value: xpointId, liveAt: now, hidden }, paging);
}

/** A person's posts, expired ones included. */
export function userPosts(
  store: Store,
  userId: string,
  hidden: HiddenVisibleTo,
  paging: { offset: number; limit: number },
) {
  return page(store, { column: 'user_id', value: userId, hidden }, paging);
}

export type NewPostRow = Omit<PostsTable, 'version' | 'comments_count'>;

/**
 * Inserts a post unless its id exists: the primary key settles two saves of one GUID racing each
 * other (one row, whichever commits first). True when this call inserted it.
 */
export async function insertPost(store: Store, row: NewPostRow): Promise<boolean> {
  const inserted = await store.db
    .insertInto('posts')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export type PostChanges = Partial<
  Omit<PostsTable, 'id' | 'user_id' | 'version' | 'comments_count' | 'created_at'>
>;

/** Writes `changes` if the post is still at `version`; the new version, or null when it was not. */
export async function updatePostIfVersion(
  store: Store,
  id: string,
  version: number,
  changes: PostChanges,
): Promise<number | null> {
  const result = await store.db
    .updateTable('posts')
    .set({ ...changes, version: sql<number>`version + 1` })
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? version + 1 : null;
}

/**
 * Hides or shows a post. Its version stays: hiding is not an edit of what the author wrote, so an
 * edit form the author has open still saves.
 */
export async function setHidden(store: Store, id: string, hiddenAt: number | null): Promise<boolean> {
  const result = await store.db
    .updateTable('posts')
    .set({ hidden_at: hiddenAt })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deletePost(store: Store, id: string): Promise<boolean> {
  const result = await store.db.deleteFrom('posts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Where a post on a point is: the point's position and city. */
export async function pointPlace(store: Store, id: string) {
  const row = await store.db
    .selectFrom('points')
    .select(['id', 'lat', 'lon', 'city_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        lat: Number(row.lat),
        lon: Number(row.lon),
        city_id: row.city_id === null ? null : Number(row.city_id),
      }
    : undefined;
}

export async function cityByForUrl(store: Store, cityForUrl: string) {
  const row = await store.db
    .selectFrom('cities')
    .select(['id'])
    .where('city_forurl', '=', cityForUrl)
    .executeTakeFirst();
  return row ? { id: Number(row.id) } : undefined;
}

export async function findVideo(store: Store, id: string) {
  return store.db
    .selectFrom('videos')
    .select(['id', 'user_id', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findUserByUsername(store: Store, username: string) {
  return store.db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

export interface NearbyRow {
  id: string;
  title: string;
  supertype: string;
  type: string;
  full_address: string | null;
  lat: number;
  lon: number;
  city_forurl: string | null;
}

/**
 * Points a post may be attached to inside a box, at most `limit` (in no order), through the spatial
 * index (SQLite R*Tree, PostgreSQL GiST on point(lon, lat), as store/geo.ts's pointsInBounds).
 * Help requests and incidents are left out: they are someone's request of the moment, not a place.
 */
export async function attachablePointsIn(
  store: Store,
  box: { south: number; west: number; north: number; east: number },
  limit: number,
): Promise<NearbyRow[]> {
  const found: NearbyRow[] = [];
  for (const range of lonRanges(box.west, box.east)) {
    const max = limit - found.length;
    const rows =
      store.dialect === 'sqlite'
        ? await sql<NearbyRow>`
            select p.id, p.title, p.supertype, p.type, p.full_address, p.lat, p.lon, c.city_forurl
            from points_rtree r join points p on p.seq = r.seq left join cities c on c.id = p.city_id
            where r.min_lat <= ${box.north} and r.max_lat >= ${box.south}
              and r.min_lon <= ${range.east} and r.max_lon >= ${range.west}
              and p.lat between ${box.south} and ${box.north} and p.lon between ${range.west} and ${range.east}
              and p.supertype not in ('helprequest', 'incident')
            limit ${max}`.execute(store.db)
        : await sql<NearbyRow>`
            select p.id, p.title, p.supertype, p.type, p.full_address, p.lat, p.lon, c.city_forurl
            from points p left join cities c on c.id = p.city_id
            where point(p.lon, p.lat) <@ box(point(${range.west}::float8, ${box.south}::float8), point(${range.east}::float8, ${box.north}::float8))
              and p.supertype not in ('helprequest', 'incident')
            limit ${max}`.execute(store.db);
    for (const row of rows.rows) found.push({ ...row, lat: Number(row.lat), lon: Number(row.lon) });
    if (found.length >= limit) break;
  }
  return found;
}
